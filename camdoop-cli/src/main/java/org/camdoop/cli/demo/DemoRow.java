package org.camdoop.cli.demo;

import java.util.Map;
import java.util.OptionalLong;
import org.camdoop.minicluster.MiniClusterResult;
import org.camdoop.shuffle.hadoop.CamdoopCounters;

/**
 * One run of the demo, reduced to the columns of its table.
 *
 * @param name {@code stock} or {@code camdoop}
 * @param jobSeconds wall time of the examples program (cluster start and stop excluded)
 * @param reduceMillis the job's total reduce-task time, Hadoop's {@code MILLIS_REDUCES} ("Total time spent by all
 *     reduce tasks"): shuffle, merge and reduce of every reduce attempt, including the time a reducer started early
 *     spends waiting for the last maps; empty if the job did not report it
 * @param reducerBytes bytes the reducers received: {@code REDUCE_SHUFFLE_BYTES} on the stock shuffle, Camdoop's
 *     "Bytes the reducer received" with Camdoop
 * @param mapOutputBytes bytes the map outputs held: {@code MAP_OUTPUT_MATERIALIZED_BYTES} on the stock shuffle,
 *     Camdoop's "Bytes the map outputs held" with Camdoop
 * @param torusLinkBytes Camdoop's "Bytes sent on torus links"; empty on the stock shuffle
 */
public record DemoRow(String name, double jobSeconds, OptionalLong reduceMillis, OptionalLong reducerBytes,
        OptionalLong mapOutputBytes, OptionalLong torusLinkBytes) {

    static final String REDUCE_MILLIS = "MILLIS_REDUCES";
    static final String STOCK_REDUCER_BYTES = "REDUCE_SHUFFLE_BYTES";
    static final String STOCK_MAP_OUTPUT_BYTES = "MAP_OUTPUT_MATERIALIZED_BYTES";
    static final String CAMDOOP_REDUCER_BYTES = CamdoopCounters.BYTES_RECEIVED;
    static final String CAMDOOP_MAP_OUTPUT_BYTES = CamdoopCounters.MAP_OUTPUT_BYTES;
    static final String CAMDOOP_LINK_BYTES = CamdoopCounters.LINK_BYTES;

    /** The stock run's row, from the counters of Hadoop's own shuffle. */
    public static DemoRow stock(MiniClusterResult result) {
        Map<String, Long> c = result.counters();
        return new DemoRow("stock", result.seconds(), counter(c, REDUCE_MILLIS), counter(c, STOCK_REDUCER_BYTES),
                counter(c, STOCK_MAP_OUTPUT_BYTES), OptionalLong.empty());
    }

    /** The Camdoop run's row, from the "Camdoop" counter group. */
    public static DemoRow camdoop(MiniClusterResult result) {
        Map<String, Long> c = result.counters();
        return new DemoRow("camdoop", result.seconds(), counter(c, REDUCE_MILLIS), counter(c, CAMDOOP_REDUCER_BYTES),
                counter(c, CAMDOOP_MAP_OUTPUT_BYTES), counter(c, CAMDOOP_LINK_BYTES));
    }

    /**
     * Bytes the reducers received over bytes the map outputs held: 1 when nothing is combined on the way, smaller
     * the more the shuffle combined; empty when either counter is missing or no map output was written.
     */
    public java.util.OptionalDouble combineRatio() {
        if (reducerBytes.isEmpty() || mapOutputBytes.isEmpty() || mapOutputBytes.getAsLong() == 0) {
            return java.util.OptionalDouble.empty();
        }
        return java.util.OptionalDouble.of((double) reducerBytes.getAsLong() / mapOutputBytes.getAsLong());
    }

    private static OptionalLong counter(Map<String, Long> counters, String name) {
        Long value = counters.get(name);
        return value == null ? OptionalLong.empty() : OptionalLong.of(value);
    }
}
