package org.camdoop.shuffle.daemon;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.transport.Topology;

/**
 * Several NodeManagers on one host (MiniMRYarnCluster, or a test rig) each host a daemon, and each needs its own
 * coordinate. When {@link DaemonConfig#COORDINATE} is unset and {@link DaemonConfig#CLAIM_DIR} is set, a daemon claims
 * the first coordinate whose topology line names this host by atomically creating
 * {@code camdoop-coord-x-y-z.lock} in that shared directory; {@link #release()} deletes it. A daemon that crashed
 * leaves its lock behind: delete stale locks (or the directory) before restarting the cluster. Immutable.
 */
public final class CoordinateClaim {
    private final Coord coord;
    private final Path lock;

    private CoordinateClaim(Coord coord, Path lock) {
        this.coord = coord;
        this.lock = lock;
    }

    /** Claims the first free coordinate of this host among {@code topology}'s lines. */
    public static CoordinateClaim claim(Topology topology, Path dir) throws IOException {
        return claimAmong(CamdoopDaemon.coordinatesOfThisHost(topology), dir)
                .orElseThrow(() -> new IllegalArgumentException("every coordinate the topology file names for this"
                        + " host is claimed in " + dir + ": add lines, delete stale locks or set "
                        + DaemonConfig.COORDINATE));
    }

    /** Claims the first of {@code candidates} without a lock file in {@code dir}. */
    static Optional<CoordinateClaim> claimAmong(List<Coord> candidates, Path dir) throws IOException {
        Files.createDirectories(dir);
        for (Coord c : candidates) {
            Path lock = dir.resolve("camdoop-coord-" + c.x() + "-" + c.y() + "-" + c.z() + ".lock");
            try {
                Files.createFile(lock);
                Files.writeString(lock, ProcessHandle.current().pid() + "\n");
                return Optional.of(new CoordinateClaim(c, lock));
            } catch (FileAlreadyExistsException taken) {
                // Another daemon on this host holds it: try the next line.
            }
        }
        return Optional.empty();
    }

    public Coord coord() {
        return coord;
    }

    public void release() throws IOException {
        Files.deleteIfExists(lock);
    }
}
