package org.camdoop.shuffle.client;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.camdoop.shuffle.protocol.PortFile;

/**
 * How a task finds its local daemon, first match wins:
 * <ol>
 *   <li>{@code camdoop.daemon.local.address} ({@code host:port}) when set;</li>
 *   <li>the port in {@value PortFile#PATH} in a directory at or above one of the task's local dirs (a container's dirs
 *       live under its NodeManager's {@code yarn.nodemanager.local-dirs}, where the auxiliary service writes the file:
 *       this finds the right daemon even with several NodeManagers on one host);</li>
 *   <li>{@code camdoop.daemon.local.port} on loopback when non-zero (a standalone daemon with a fixed port).</li>
 * </ol>
 * Stateless.
 */
public final class DaemonLocator {
    public static final String ADDRESS_KEY = "camdoop.daemon.local.address";
    public static final String PORT_KEY = "camdoop.daemon.local.port";

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
            Optional<Integer> port = PortFile.above(Path.of(dir));
            if (port.isPresent()) {
                return new InetSocketAddress(InetAddress.getLoopbackAddress(), port.get());
            }
        }
        int port = conf.getInt(PORT_KEY, 0);
        if (port > 0) {
            return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        }
        throw new IOException("no Camdoop daemon found: " + ADDRESS_KEY + " unset, no " + PortFile.PATH + " above "
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
}
