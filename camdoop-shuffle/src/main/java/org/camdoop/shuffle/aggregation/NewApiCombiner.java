package org.camdoop.shuffle.aggregation;

import java.io.IOException;
import java.io.InterruptedIOException;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.StatusReporter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.reduce.WrappedReducer;
import org.apache.hadoop.mapreduce.task.ReduceContextImpl;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * Runs an {@code org.apache.hadoop.mapreduce.Reducer} combiner the way Hadoop's {@code Task.NewCombinerRunner} does:
 * a fresh instance per batch, {@link Reducer#run} over a {@link ReduceContextImpl} wrapped by {@link WrappedReducer}
 * (so setup and cleanup run once per batch, as Hadoop runs them once per spill). The daemon runs no task, so the
 * context gets a placeholder attempt id and a reporter whose counters are kept locally.
 */
final class NewApiCombiner implements CombinerFunction {
    private final Class<?> combinerClass;
    private final JobAggregationSpec spec;
    private final RecordSerializer serializer;
    private final LocalStatusReporter reporter = new LocalStatusReporter();
    /** Looked up once: the counters live as long as this function (one vertex's stream), not one batch. */
    private final Counter inputKeys = reporter.getCounter("camdoop", "combine input keys");
    private final Counter inputValues = reporter.getCounter("camdoop", "combine input values");

    NewApiCombiner(Class<?> combinerClass, JobAggregationSpec spec) throws IOException {
        this.combinerClass = combinerClass;
        this.spec = spec;
        this.serializer = new RecordSerializer(spec);
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public void combine(RawKeyValueIterator input, RecordBatch output) throws IOException {
        Reducer<Object, Object, Object, Object> combiner =
                (Reducer<Object, Object, Object, Object>) ReflectionUtils.newInstance(combinerClass, spec.job());
        RecordWriter<Object, Object> writer = new RecordWriter<>() {
            @Override
            public void write(Object key, Object value) throws IOException {
                serializer.write(key, value, output);
            }

            @Override
            public void close(TaskAttemptContext context) {}
        };
        try {
            ReduceContextImpl<Object, Object, Object, Object> context = new ReduceContextImpl(spec.job(),
                    new TaskAttemptID(), input, inputKeys, inputValues, writer, null, reporter,
                    spec.combinerGroupingComparator(), spec.keyClass(), spec.valueClass());
            combiner.run(new WrappedReducer<Object, Object, Object, Object>().getReducerContext(context));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while running combiner " + combinerClass.getName());
        }
    }

    /** Counters the combiner may touch; nothing reports them yet because no task owns this work. */
    private static final class LocalStatusReporter extends StatusReporter {
        private final Counters counters = new Counters();

        @Override
        public Counter getCounter(Enum<?> name) {
            return counters.findCounter(name);
        }

        @Override
        public Counter getCounter(String group, String name) {
            return counters.findCounter(group, name);
        }

        @Override
        public void progress() {}

        @Override
        public float getProgress() {
            return 0;
        }

        @Override
        public void setStatus(String status) {}
    }
}
