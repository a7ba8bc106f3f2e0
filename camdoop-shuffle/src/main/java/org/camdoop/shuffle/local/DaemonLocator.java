package org.camdoop.shuffle.local;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;

/**
 * How a task finds its local daemon, first match wins:
 * <ol>
 *   <li>{@code camdoop.daemon.local.address} ({@code host:port}) when set;</li>
 *   <li>the port in {@value #PORT_FILE} in a directory at or above one of the task's local dirs (a container's dirs
 *       live under its NodeManager's {@code yarn.nodemanager.local-dirs}, where the auxiliary service writes the file:
 *       this finds the right daemon even with several NodeManagers on one host);</li>
 *   <li>{@code camdoop.daemon.local.port} on loopback when non-zero (a standalone daemon with a fixed port).</li>
 * </ol>
 * Stateless.
 */
public final class DaemonLocator {
    /** Relative path of the port file under each NodeManager local dir. */
    public static final String PORT_FILE = "camdoop/daemon.port";
    static final String ADDRESS_KEY = "camdoop.daemon.local.address";
    static final String PORT_KEY = "camdoop.daemon.local.port";

    private DaemonLocator() {}

    /** Finds the daemon for a task whose local dirs are {@code localDirs}. */
    public static InetSocketAddress locate(Configuration conf, List<String> localDirs) throws IOException {
        String explicit = conf.getTrimmed(ADDRESS_KEY, "");
        if (!explicit.isEmpty()) {
            int colon = explicit.lastIndexOf(':');
            if (colon <= 0) {
                throw new IOException(ADDRESS_KEY + " must be host:port, got '" + explicit + "'");
            }
            return new InetSocketAddress(explicit.substring(0, colon), Integer.parseInt(explicit.substring(colon + 1)));
        }
        for (String dir : localDirs) {
            Optional<Integer> port = portFileAbove(Path.of(dir));
            if (port.isPresent()) {
                return new InetSocketAddress(InetAddress.getLoopbackAddress(), port.get());
            }
        }
        int port = conf.getInt(PORT_KEY, 0);
        if (port > 0) {
            return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        }
        throw new IOException("no Camdoop daemon found: " + ADDRESS_KEY + " unset, no " + PORT_FILE + " above "
                + localDirs + ", " + PORT_KEY + " unset");
    }

    /** The task's local dirs: the container's {@code LOCAL_DIRS}, then the JobConf's {@code mapreduce.cluster.local.dir}. */
    public static List<String> taskLocalDirs(Configuration conf) {
        List<String> dirs = new ArrayList<>();
        String env = System.getenv("LOCAL_DIRS");
        if (env != null) {
            for (String d : env.split(",")) {
                if (!d.isBlank()) {
                    dirs.add(d.trim());
                }
            }
        }
        for (String d : conf.getTrimmedStrings("mapreduce.cluster.local.dir")) {
            dirs.add(d);
        }
        return dirs;
    }

    private static Optional<Integer> portFileAbove(Path dir) throws IOException {
        for (Path p = dir.toAbsolutePath(); p != null; p = p.getParent()) {
            Path file = p.resolve(PORT_FILE);
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

    /** Writes {@code port} to {@value #PORT_FILE} under {@code nmLocalDir}, atomically (readers never see half). */
    public static Path writePortFile(Path nmLocalDir, int port) throws IOException {
        Path file = nmLocalDir.resolve(PORT_FILE);
        Files.createDirectories(file.getParent());
        Path tmp = Files.createTempFile(file.getParent(), "daemon.port", ".tmp");
        Files.writeString(tmp, port + "\n", StandardCharsets.US_ASCII);
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        return file;
    }
}
