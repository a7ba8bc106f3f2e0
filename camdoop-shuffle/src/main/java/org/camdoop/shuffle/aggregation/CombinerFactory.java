package org.camdoop.shuffle.aggregation;

import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * The job's combiner class and which MapReduce API it uses; creates a {@link CombinerFunction} per stream: Hadoop's
 * summing reducers get {@link SummingCombiner} (same output, byte for byte), every other class runs through Hadoop.
 * Immutable and shareable; the functions it creates are not.
 */
public final class CombinerFactory {
    private final Class<?> combinerClass;
    private final boolean newApi;

    private CombinerFactory(Class<?> combinerClass, boolean newApi) {
        this.combinerClass = combinerClass;
        this.newApi = newApi;
    }

    /** The job's combiner, looked up in the order of Hadoop's {@code Task.CombinerRunner.create}. */
    static Optional<CombinerFactory> forJob(JobConf job) {
        Class<?> oldApi = job.getCombinerClass();
        if (oldApi != null) {
            return Optional.of(new CombinerFactory(oldApi, false));
        }
        Class<?> newApi = job.getClass(MRJobConfig.COMBINE_CLASS_ATTR, null, Reducer.class);
        return newApi == null ? Optional.empty() : Optional.of(new CombinerFactory(newApi, true));
    }

    /** The combiner's class (for logs and errors). */
    public Class<?> combinerClass() {
        return combinerClass;
    }

    /** True for an {@code org.apache.hadoop.mapreduce.Reducer}, false for an {@code org.apache.hadoop.mapred.Reducer}. */
    public boolean isNewApi() {
        return newApi;
    }

    CombinerFunction create(JobAggregationSpec spec) throws IOException {
        if (!newApi) {
            return new OldApiCombiner(combinerClass, spec);
        }
        Optional<SummingCombiner> summing = summing(spec);
        return summing.isPresent() ? summing.get() : new NewApiCombiner(combinerClass, spec);
    }

    /** The summing fast path, if the combiner is one of Hadoop's summing reducers on its own value class. */
    Optional<SummingCombiner> summing(JobAggregationSpec spec) throws IOException {
        return newApi ? SummingCombiner.forClass(combinerClass, spec) : Optional.empty();
    }

    @Override
    public String toString() {
        return combinerClass.getName() + (newApi ? " (mapreduce API)" : " (mapred API)");
    }
}
