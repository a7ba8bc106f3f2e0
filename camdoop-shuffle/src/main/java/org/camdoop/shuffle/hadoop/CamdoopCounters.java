package org.camdoop.shuffle.hadoop;

import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.Reporter;
import org.camdoop.shuffle.protocol.EndOfStream;

/**
 * The job counters of the Camdoop group, updated by the reduce side as its stream arrives and ends. Not thread-safe:
 * the reduce task's thread. The names are public so tools that read a job's counters (the demo, the benchmarks) name
 * them from here.
 */
public final class CamdoopCounters {
    /** The counter group's display name. */
    public static final String GROUP = "Camdoop";
    public static final String BYTES_RECEIVED = "Bytes the reducer received";
    public static final String RECORDS_RECEIVED = "Records the reducer received";
    public static final String LINK_BYTES = "Bytes sent on torus links";
    public static final String RECORDS_COMBINED = "Records combined on path";
    /**
     * Bytes of the final map output files (all partitions; the map side adds them). The job's combine ratio is
     * {@link #BYTES_RECEIVED} over this, both summed over the job: a ratio does not add up across tasks, so it is
     * derived from the two counters rather than kept as one.
     */
    public static final String MAP_OUTPUT_BYTES = "Bytes the map outputs held";
    public static final String STOCK_FALLBACKS = "Reduce attempts on the stock shuffle";
    /** Map outputs that died with a server mid-shuffle and whose maps' new attempts the shuffle resumed with. */
    public static final String MAP_OUTPUTS_REPLACED = "Lost map outputs replaced mid-shuffle";

    private final Reporter reporter;
    private final Counters.Counter shuffleBytes;

    CamdoopCounters(Reporter reporter, Counters.Counter shuffleBytes) {
        this.reporter = reporter;
        this.shuffleBytes = shuffleBytes;
    }

    void chunk(int bytes) {
        reporter.incrCounter(GROUP, BYTES_RECEIVED, bytes);
        if (shuffleBytes != null) {
            shuffleBytes.increment(bytes);
        }
        reporter.progress();
    }

    void records(long n) {
        reporter.incrCounter(GROUP, RECORDS_RECEIVED, n);
    }

    void end(EndOfStream end) {
        reporter.incrCounter(GROUP, LINK_BYTES, end.linkBytes());
        reporter.incrCounter(GROUP, RECORDS_COMBINED, end.recordsCombined());
    }

    void replaced(int mapOutputs) {
        reporter.incrCounter(GROUP, MAP_OUTPUTS_REPLACED, mapOutputs);
    }

    void fellBack() {
        reporter.incrCounter(GROUP, STOCK_FALLBACKS, 1);
    }
}
