package org.camdoop.bench.shuffle;

import org.camdoop.shuffle.protocol.ShuffleMode;
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
 * @param segmentBytes the transport's data segment: the unit a vertex forwards and a link serialises, so at low link
 *                    rates it sets each hop's store-and-forward delay (segment / rate)
 */
public record ShuffleBenchOptions(TorusShape shape, double ratioS, int reducers, ShuffleMode mode, TreeChoice trees,
        double mbPerServer, double linkMbps, long seed, int segmentBytes) {

    /**
     * The default segment: about a jumbo frame, as in the paper's simulator. At the low link rates the benchmark uses,
     * the transport's 64 KB default would serialise the trees (each hop waiting for a whole 64 KB chunk) and measure
     * pipeline latency instead of bandwidth.
     */
    public static final int DEFAULT_SEGMENT_BYTES = 8 * 1024;

    /** Smallest segment: a record of the workload (4-28 character key, 4-byte value) must fit with room to spare. */
    public static final int MIN_SEGMENT_BYTES = 512;

    /** The same options with the default segment. */
    public ShuffleBenchOptions(TorusShape shape, double ratioS, int reducers, ShuffleMode mode, TreeChoice trees,
            double mbPerServer, double linkMbps, long seed) {
        this(shape, ratioS, reducers, mode, trees, mbPerServer, linkMbps, seed, DEFAULT_SEGMENT_BYTES);
    }

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
        if (segmentBytes < MIN_SEGMENT_BYTES || segmentBytes > 1024 * 1024) {
            throw new IllegalArgumentException("--segment-bytes must be in [" + MIN_SEGMENT_BYTES + ", 1048576], got "
                    + segmentBytes);
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

    /** The same run with a different mode (the paper's comparisons change only that). */
    public ShuffleBenchOptions withMode(ShuffleMode other) {
        return new ShuffleBenchOptions(shape, ratioS, reducers, other, trees, mbPerServer, linkMbps, seed, segmentBytes);
    }

    /** The server that runs partition {@code p}'s reduce task: roots spread evenly, {@code p * N / R}. */
    public int rootOf(int partition) {
        return (int) ((long) partition * servers() / reducers);
    }
}
