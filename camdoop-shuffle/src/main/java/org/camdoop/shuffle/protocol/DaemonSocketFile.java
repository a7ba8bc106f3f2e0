package org.camdoop.shuffle.protocol;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/**
 * The file through which a daemon tells its tasks where its Unix domain socket is: {@value #PATH} under each of the
 * daemon's local dirs (under YARN the NodeManager's {@code yarn.nodemanager.local-dirs}), one line, the socket's
 * absolute path. The daemon writes it; the task's locator reads it only if it is a regular file (not a link) owned by
 * the user who owns the local dir it was found in, which is the daemon's user (see {@code DaemonLocator}). Stateless.
 */
public final class DaemonSocketFile {
    /** Relative path of the socket file under each daemon local dir. */
    public static final String PATH = "camdoop/daemon.socket";
    /** Largest socket file accepted (a path). */
    private static final long MAX_BYTES = 4096;

    private DaemonSocketFile() {}

    /** Writes {@code socket} to {@value #PATH} under {@code localDir}, atomically (readers never see half). */
    public static Path write(Path localDir, Path socket) throws IOException {
        Path file = localDir.resolve(PATH);
        Files.createDirectories(file.getParent());
        Path tmp = Files.createTempFile(file.getParent(), "daemon.socket", ".tmp");
        Files.writeString(tmp, socket.toAbsolutePath() + "\n", StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return file;
    }

    /**
     * The socket path in {@value #PATH} directly under {@code localDir}, if that file exists.
     *
     * @throws IOException if the file is not a regular file owned by {@code expectedOwner}, or unreadable
     */
    public static Optional<Path> read(Path localDir, String expectedOwner) throws IOException {
        Path file = localDir.resolve(PATH);
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return Optional.empty();
        }
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException("Camdoop socket file " + file + " is not a regular file: ignored");
        }
        String owner = UnixPeers.ownerOf(file);
        if (!owner.equals(expectedOwner)) {
            throw new IOException("Camdoop socket file " + file + " is owned by " + owner + ", not " + expectedOwner
                    + ": ignored");
        }
        if (Files.size(file) > MAX_BYTES) {
            throw new IOException("Camdoop socket file " + file + " is too large");
        }
        String text = Files.readString(file, StandardCharsets.UTF_8).trim();
        Path socket = Path.of(text);
        if (!socket.isAbsolute()) {
            throw new IOException("unreadable Camdoop socket file " + file + ": '" + text + "'");
        }
        return Optional.of(socket);
    }
}
