package org.camdoop.shuffle.daemon;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/** Where a daemon binds its Unix domain socket when none is configured. Stateless. */
final class LocalSockets {
    /** Longest socket path used: Linux allows 107 bytes in {@code sun_path}; leave room. */
    static final int MAX_PATH_BYTES = 100;

    private LocalSockets() {}

    /**
     * {@code camdoop/daemon.sock} under {@code localDir}; when that path is too long for a socket, {@code d.sock} in a
     * fresh {@code /tmp/camdoop-sock-*} directory that only the daemon's user can write (tasks find it through the
     * {@code camdoop/daemon.socket} file either way).
     */
    static Path defaultSocket(Path localDir) {
        Path preferred = localDir.resolve("camdoop").resolve("daemon.sock").toAbsolutePath();
        if (preferred.toString().getBytes(StandardCharsets.UTF_8).length <= MAX_PATH_BYTES) {
            return preferred;
        }
        try {
            Path dir = Files.createTempDirectory(Path.of("/tmp"), org.camdoop.shuffle.endpoint.LocalEndpoint.PRIVATE_DIR_PREFIX);
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
            return dir.resolve("d.sock");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot make a directory for the daemon's socket", e);
        }
    }
}
