package org.camdoop.bench.hadoop;

import java.util.List;

/**
 * Bytes of the stock shuffle that crossed between NodeManagers. Hadoop's counters do not say how many bytes a reduce
 * fetched from each map, so per reduce task r on node n the estimate is REDUCE_SHUFFLE_BYTES(r) x (the
 * MAP_OUTPUT_MATERIALIZED_BYTES of the maps not on n / those of all maps): it assumes every map gives every reduce the
 * same share of its output, exact when the partitions are balanced.
 */
final class NetworkEstimate {

    /** One successful map attempt: where it ran and the bytes its output file held (all partitions). */
    record MapSide(String node, long materializedBytes) {
    }

    /** One successful reduce attempt: where it ran and the bytes it shuffled (all maps). */
    record ReduceSide(String node, long shuffleBytes) {
    }

    private NetworkEstimate() {
    }

    /** The estimate, rounded to a byte; 0 when the maps wrote nothing. */
    static long remoteShuffleBytes(List<MapSide> maps, List<ReduceSide> reduces) {
        long all = maps.stream().mapToLong(MapSide::materializedBytes).sum();
        if (all == 0) {
            return 0;
        }
        double remote = 0;
        for (ReduceSide r : reduces) {
            long elsewhere = maps.stream().filter(m -> !m.node().equals(r.node()))
                    .mapToLong(MapSide::materializedBytes).sum();
            remote += (double) r.shuffleBytes() * elsewhere / all;
        }
        return Math.round(remote);
    }
}
