package org.camdoop.shuffle.endpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.camdoop.shuffle.client.DaemonAddress;
import org.camdoop.shuffle.client.DaemonClient;
import org.camdoop.shuffle.client.DaemonLocator;
import org.camdoop.shuffle.daemon.CamdoopDaemon;
import org.camdoop.shuffle.daemon.DaemonConfig;
import org.camdoop.shuffle.jobs.JarCache;
import org.camdoop.shuffle.jobs.JobsConfig;
import org.camdoop.shuffle.protocol.DaemonSocketFile;
import org.camdoop.shuffle.protocol.JarDigest;
import org.camdoop.shuffle.protocol.UnixPeers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11's attacks on finding the daemon (5: planted socket files, squatters on the socket) and on its jar cache
 * directory (6): the task never talks to a process that is not the daemon's user, and the daemon refuses a cache
 * directory it does not own alone.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DaemonDiscoveryAttackTest {
    @TempDir
    Path dir;

    /** A container dir under a NodeManager local dir, as YARN lays them out. */
    private Path containerDir(Path nm) throws IOException {
        return Files.createDirectories(nm.resolve("usercache/u/appcache/application_1_0001"));
    }

    @Test
    void aTaskFindsItsDaemonThroughTheNodeManagerDirAndNeverAbove() throws Exception {
        Path top = dir.resolve("world-writable");
        Path nm = top.resolve("nm-local-0");
        Path container = containerDir(nm);
        Configuration task = new Configuration(false);
        // A socket file planted above the NodeManager's dirs is never read.
        DaemonSocketFile.write(top, dir.resolve("attacker.sock"));
        DaemonSocketFile.write(dir, dir.resolve("attacker.sock"));
        assertEquals("no Camdoop daemon found: camdoop.daemon.local.socket unset, no camdoop/daemon.socket owned by the"
                + " daemon's user in [" + container + ", " + nm + "]", assertThrows(IOException.class,
                        () -> DaemonLocator.locate(task, List.of(container.toString()))).getMessage());
        // The real one, in the NodeManager dir, is.
        DaemonSocketFile.write(nm, nm.resolve("camdoop/daemon.sock"));
        assertEquals(new DaemonAddress(nm.resolve("camdoop/daemon.sock"), UnixPeers.processUser()),
                DaemonLocator.locate(task, List.of(container.toString())));
        // A socket file owned by someone other than the daemon's user is ignored.
        task.set(DaemonLocator.USER_KEY, "nobody");
        assertThrows(IOException.class, () -> DaemonLocator.locate(task, List.of(container.toString())));
    }

    @Test
    void aTaskRefusesASocketOwnedByAnotherUserOrServedByAnotherUsersProcess() throws Exception {
        Path socket = dir.resolve("squat.sock");
        try (ServerSocketChannel squatter = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            squatter.bind(UnixDomainSocketAddress.of(socket));
            String me = UnixPeers.processUser();
            assertEquals("the Camdoop daemon socket " + socket + " is owned by " + me + ", not the daemon's user"
                    + " nobody: refusing to connect", assertThrows(IOException.class,
                            () -> DaemonClient.connect(new DaemonAddress(socket, "nobody"))).getMessage());
            if (me.equals("root")) {
                // Root can give the socket file away: the owner check passes, the serving process's uid does not.
                UserPrincipal nobody = socket.getFileSystem().getUserPrincipalLookupService()
                        .lookupPrincipalByName("nobody");
                Files.setOwner(socket, nobody);
                assertEquals("the process serving the Camdoop daemon socket " + socket + " runs as root, not the"
                        + " daemon's user nobody: refusing to talk to it", assertThrows(IOException.class,
                                () -> DaemonClient.connect(new DaemonAddress(socket, "nobody"))).getMessage());
                try (SocketChannel accepted = squatter.accept()) {
                    ByteBuffer b = ByteBuffer.allocate(16);
                    assertEquals(-1, accepted.read(b), "the task sent the squatter nothing");
                }
            }
        }
    }

    @Test
    void theDaemonRefusesAJarCacheDirectoryOpenToOthersOrOwnedByAnotherUser() throws Exception {
        Path open = Files.createDirectories(dir.resolve("open-cache"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxr-xr-x"));
        Configuration c = LocalDaemonFixture.conf(dir);
        c.set(JobsConfig.JAR_CACHE_DIR, open.toString());
        assertEquals("jar cache directory " + open + " has mode rwxr-xr-x, not rwx------ (700): refusing to start",
                assertThrows(IOException.class, () -> CamdoopDaemon.start(c)).getMessage());

        String me = UnixPeers.processUser();
        Path theirs;
        if (me.equals("root")) {
            theirs = Files.createDirectories(dir.resolve("their-cache"));
            Files.setPosixFilePermissions(theirs, PosixFilePermissions.fromString("rwx------"));
            Files.setOwner(theirs, theirs.getFileSystem().getUserPrincipalLookupService()
                    .lookupPrincipalByName("nobody"));
        } else {
            theirs = Path.of("/"); // owned by root, not by the daemon's user
        }
        String owner = UnixPeers.ownerOf(theirs);
        c.set(JobsConfig.JAR_CACHE_DIR, theirs.toString());
        assertEquals("jar cache directory " + theirs + " is owned by " + owner + ", not the daemon's user " + me
                + ": refusing to start", assertThrows(IOException.class, () -> CamdoopDaemon.start(c)).getMessage());

        // The default: under the daemon's first local dir, created with mode 700.
        c.unset(JobsConfig.JAR_CACHE_DIR);
        try (CamdoopDaemon d = CamdoopDaemon.start(c)) {
            Path cache = dir.resolve("nm-local/camdoop/jar-cache");
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(cache)));
            assertEquals(LocalDaemonFixture.WORD_COUNTS, runLegit(d));
        }
    }

    @Test
    void adoptedJarsAreRehashedAndAForgedOneIsDeleted() throws Exception {
        Path cacheDir = dir.resolve("cache");
        byte[] real = {1, 2, 3};
        JarDigest digest = JarDigest.of(real);
        JarCache.open(cacheDir, 1 << 20).put(digest, real);
        Path file = cacheDir.resolve(digest.hex() + ".jar");
        Files.write(file, new byte[] {6, 6, 6}); // someone swapped the bytes under the same name
        JarCache reopened = JarCache.open(cacheDir, 1 << 20);
        assertFalse(reopened.has(digest));
        assertFalse(Files.exists(file));
        reopened.put(digest, real);
        assertTrue(reopened.has(digest));
    }

    /** A legitimate job through {@code d}, a daemon configured by {@link LocalDaemonFixture#conf} over {@link #dir}. */
    private Map<String, Long> runLegit(CamdoopDaemon d) throws Exception {
        d.tokens().add("job_1700000000000_0042", LocalDaemonFixture.SECRET, UnixPeers.processUser());
        return LocalDaemonFixture.runWordCount(d, dir, "job_1700000000000_0042");
    }

    @Test
    void aSecondDaemonOnALiveSocketRefusesToStartAndTheFirstKeepsServing() throws Exception {
        Configuration c = LocalDaemonFixture.conf(dir);
        try (CamdoopDaemon first = CamdoopDaemon.start(c)) {
            Configuration second = LocalDaemonFixture.conf(dir);
            second.set(JobsConfig.LOCAL_DIRS, dir.resolve("nm-local").toString());
            IOException e = assertThrows(IOException.class, () -> CamdoopDaemon.start(second));
            assertEquals("another process (user " + UnixPeers.processUser() + ") listens on the local socket "
                    + first.localSocket() + ": give each daemon its own camdoop.daemon.local-dirs or"
                    + " camdoop.daemon.local.socket", e.getMessage());
            assertEquals(LocalDaemonFixture.WORD_COUNTS, runLegit(first));
        }
    }
}
