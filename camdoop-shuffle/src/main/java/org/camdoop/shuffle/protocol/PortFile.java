package org.camdoop.shuffle.protocol;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/**
 * The file through which a NodeManager's daemon tells its tasks its local port: {@value #PATH} under each NodeManager
 * local dir, one decimal line. The auxiliary service writes it, the task's locator reads it. Stateless.
 */
public final class PortFile {
    /** Relative path of the port file under each NodeManager local dir. */
    public static final String PATH = "camdoop/daemon.port";

    private PortFile() {}

    /** Writes {@code port} to {@value #PATH} under {@code nmLocalDir}, atomically (readers never see half). */
    public static Path write(Path nmLocalDir, int port) throws IOException {
        Path file = nmLocalDir.resolve(PATH);
        Files.createDirectories(file.getParent());
        Path tmp = Files.createTempFile(file.getParent(), "daemon.port", ".tmp");
        Files.writeString(tmp, port + "\n", StandardCharsets.US_ASCII);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return file;
    }

    /** The port in the nearest port file at or above {@code dir}, if any. */
    public static Optional<Integer> above(Path dir) throws IOException {
        for (Path p = dir.toAbsolutePath(); p != null; p = p.getParent()) {
            Path file = p.resolve(PATH);
            if (Files.isRegularFile(file)) {
                String text = Files.readString(file, StandardCharsets.US_ASCII).trim();
                try {
                    return Optional.of(Integer.parseInt(text));
                } catch (NumberFormatException e) {
                    throw new IOException("unreadable Camdoop port file " + file + ": '" + text + "'");
                }
            }
        }
        return Optional.empty();
    }
}
