package org.camdoop.shuffle.aggregation;

import java.io.IOException;
import org.apache.hadoop.mapred.RawKeyValueIterator;

/**
 * One way of running the job's combiner (old or new MapReduce API) over a batch of complete key groups.
 * Implementations are created per stream by {@link CombinerFactory} and used by one thread.
 */
interface CombinerFunction {
    /**
     * Runs the combiner over every group in {@code input} (sorted, each group complete) and appends its output records
     * to {@code output}.
     */
    void combine(RawKeyValueIterator input, RecordBatch output) throws IOException;
}
