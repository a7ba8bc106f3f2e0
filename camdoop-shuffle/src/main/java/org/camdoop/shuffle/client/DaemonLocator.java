package org.camdoop.shuffle.client;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.camdoop.shuffle.protocol.DaemonSocketFile;
import org.camdoop.shuffle.protocol.UnixPeers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a task finds its local daemon, first match wins:
 * <ol>
 *   <li>{@code camdoop.daemon.local.socket} (a socket path) when set;</li>
 *   <li>{@value DaemonSocketFile#PATH} directly in one of the task's local dirs, or in the NodeManager local dir that
 *       holds it (a container's dirs are {@code <nm-local-dir>/usercache/<user>/appcache/<app>[/...]}; the search
 *       goes no higher, never up to {@code /}). The file must be a regular file owned by the owner of the dir it is
 *       in, else it is ignored with a warning (someone else planted it).</li>
 * </ol>
 * The daemon's user is {@code camdoop.daemon.user} when set, else the owner of that dir (for an explicit socket, of
 * the socket's directory). {@link DaemonClient#connect} then checks the socket's owner and the serving process's uid
 * against it. Stateless.
 */
public final class DaemonLocator {
    private static final Logger LOG = LoggerFactory.getLogger(DaemonLocator.class);
    /** Task key: the daemon's socket; owned by {@code org.camdoop.shuffle.hadoop.CamdoopJobConfig}. */
    public static final String SOCKET_KEY = "camdoop.daemon.local.socket";
    /** Task key: the user the daemon must run as; owned by {@code org.camdoop.shuffle.hadoop.CamdoopJobConfig}. */
    public static final String USER_KEY = "camdoop.daemon.user";
    /** The directory YARN puts every user's container dirs in, under each NodeManager local dir. */
    private static final String USERCACHE = "usercache";

    private DaemonLocator() {}

    /** Finds the daemon for a task whose local dirs are {@code localDirs}. */
    public static DaemonAddress locate(Configuration conf, List<String> localDirs) throws IOException {
        String user = conf.getTrimmed(USER_KEY, "");
        String explicit = conf.getTrimmed(SOCKET_KEY, "");
        if (!explicit.isEmpty()) {
            Path socket = Path.of(explicit).toAbsolutePath();
            return new DaemonAddress(socket, user.isEmpty() ? UnixPeers.ownerOf(socket.getParent()) : user);
        }
        Set<Path> searched = new LinkedHashSet<>();
        for (String d : localDirs) {
            searched.addAll(candidates(Path.of(d).toAbsolutePath().normalize()));
        }
        for (Path dir : searched) {
            try {
                if (!java.nio.file.Files.isDirectory(dir)) {
                    continue;
                }
                String owner = user.isEmpty() ? UnixPeers.ownerOf(dir) : user;
                Optional<Path> socket = DaemonSocketFile.read(dir, owner);
                if (socket.isPresent()) {
                    return new DaemonAddress(socket.get(), owner);
                }
            } catch (IOException e) {
                LOG.warn("{}", e.getMessage());
            }
        }
        throw new IOException("no Camdoop daemon found: " + SOCKET_KEY + " unset, no " + DaemonSocketFile.PATH
                + " owned by the daemon's user in " + new ArrayList<>(searched));
    }

    /** {@code dir} itself, then the NodeManager local dir above it if {@code dir} is a container dir. */
    static List<Path> candidates(Path dir) {
        List<Path> out = new ArrayList<>();
        out.add(dir);
        for (Path p = dir; p != null && p.getParent() != null; p = p.getParent()) {
            Path name = p.getFileName();
            if (name != null && name.toString().equals(USERCACHE)) {
                out.add(p.getParent());
                break;
            }
        }
        return out;
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
