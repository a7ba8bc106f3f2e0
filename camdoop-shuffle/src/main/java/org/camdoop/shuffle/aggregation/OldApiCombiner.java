package org.camdoop.shuffle.aggregation;

import java.io.IOException;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.OutputCollector;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.Reducer;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.Task;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * Runs an {@code org.apache.hadoop.mapred.Reducer} combiner the way Hadoop's {@code Task.OldCombinerRunner} does: a
 * fresh instance per batch (as Hadoop makes one per spill), Hadoop's own {@link Task.CombineValuesIterator} for grouping
 * and value deserialization, and {@code close()} after the batch.
 */
final class OldApiCombiner implements CombinerFunction {
    private final Class<?> combinerClass;
    private final JobAggregationSpec spec;
    private final RecordSerializer serializer;
    private final Counters.Counter inputCounter = new Counters.Counter();

    OldApiCombiner(Class<?> combinerClass, JobAggregationSpec spec) throws IOException {
        this.combinerClass = combinerClass;
        this.spec = spec;
        this.serializer = new RecordSerializer(spec);
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public void combine(RawKeyValueIterator input, RecordBatch output) throws IOException {
        Reducer<Object, Object, Object, Object> combiner =
                (Reducer<Object, Object, Object, Object>) ReflectionUtils.newInstance(combinerClass, spec.job());
        OutputCollector<Object, Object> collector = (k, v) -> serializer.write(k, v, output);
        try {
            Task.CombineValuesIterator<Object, Object> values = new Task.CombineValuesIterator(input,
                    spec.combinerGroupingComparator(), spec.keyClass(), spec.valueClass(), spec.job(), Reporter.NULL,
                    inputCounter);
            while (values.more()) {
                combiner.reduce(values.getKey(), values, collector, Reporter.NULL);
                values.nextKey();
            }
        } finally {
            combiner.close();
        }
    }
}
