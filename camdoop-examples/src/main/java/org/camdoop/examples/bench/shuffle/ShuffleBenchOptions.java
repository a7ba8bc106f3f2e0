package org.camdoop.examples.bench.shuffle;

import org.camdoop.shuffle.service.ShuffleMode;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.trees.TreeChoice;

/**
 * The validated parameters of one shuffle benchmark run.
 *
 * @param shape       the torus; one daemon and one map output per coordinate
 * @param ratioS      S requested, in [0, 1]; 0 means 1/N (every key on every server)
 * @param reducers    R, in [1, servers]
 * @param mode        camdoop, noagg or direct
 * @param trees       six disjoint trees or one shortest-path tree (ignored in direct mode)
 * @param mbPerServer map output per server, in MB (10^6 bytes, IFile record layout)
 * @param linkMbps    link rate in Mbit/s per direction; 0 leaves links unshaped
 * @param seed        the workload's seed
 */
public record ShuffleBenchOptions(TorusShape shape, double ratioS, int reducers, ShuffleMode mode, TreeChoice trees,
        double mbPerServer, double linkMbps, long seed) {

    public ShuffleBenchOptions {
        if (!(ratioS >= 0 && ratioS <= 1)) {
            throw new IllegalArgumentException("--ratio-s must be in [0, 1], got " + ratioS);
        }
        if (reducers < 1 || reducers > shape.size()) {
            throw new IllegalArgumentException("--reducers must be in [1, " + shape.size() + "] (one root per server), got "
                    + reducers);
        }
        if (!(mbPerServer > 0) || mbPerServer > 1000) {
            throw new IllegalArgumentException("--mb-per-server must be in (0, 1000], got " + mbPerServer);
        }
        if (!(linkMbps >= 0) || Double.isInfinite(linkMbps)) {
            throw new IllegalArgumentException("--link-mbps must be >= 0 (0: unshaped), got " + linkMbps);
        }
    }

    public int servers() {
        return shape.size();
    }

    public long bytesPerServer() {
        return Math.round(mbPerServer * 1e6);
    }

    /** Link rate per direction in bytes per second, or 0 for unshaped links. */
    public long linkBytesPerSecond() {
        return Math.round(linkMbps * 1e6 / 8);
    }

    /** The server that runs partition {@code p}'s reduce task: roots spread evenly, {@code p * N / R}. */
    public int rootOf(int partition) {
        return (int) ((long) partition * servers() / reducers);
    }
}
