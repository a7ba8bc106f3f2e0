package org.camdoop.shuffle.aggregation;

import org.camdoop.shuffle.records.RecordLayout;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Merge and combine of whole in-memory inputs against {@link Reference}. */
class MergeCombineTest {

    /** Runs the pipeline over fully available inputs; returns the parsed output. */
    static List<Records.Raw> aggregate(JobAggregationSpec spec, List<List<Records.Raw>> inputs, MergeStrategy strategy,
            Records.CollectingSink sink, AggregationCounters[] countersOut) throws IOException {
        List<SortedRun> runs = new ArrayList<>();
        for (List<Records.Raw> input : inputs) {
            runs.add(new ByteArrayRun(Records.layout(Records.sorted(input, spec.sortComparator()))));
        }
        try (AggregationPipeline pipeline = AggregationPipeline.open(spec, runs, strategy, sink)) {
            PumpOutcome outcome;
            do {
                outcome = pipeline.pump(1000);
                assertTrue(outcome != PumpOutcome.BLOCKED, "in-memory inputs never block");
            } while (outcome != PumpOutcome.FINISHED);
            if (countersOut != null) {
                countersOut[0] = pipeline.counters();
            }
        }
        return Records.parseChunks(sink.chunks);
    }

    static List<Records.Raw> aggregate(JobAggregationSpec spec, List<List<Records.Raw>> inputs, MergeStrategy strategy)
            throws IOException {
        return aggregate(spec, inputs, strategy, new Records.CollectingSink(), null);
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.0, 0.5, 1.0})
    void oldApiCombinerMatchesReferenceForEverySRatio(double s) throws IOException {
        JobAggregationSpec spec = JobAggregationSpec.fromJob(TestJobs.textIntOldCombiner());
        List<List<Records.Raw>> inputs = Workloads.sRatio(new Random(7), 7, 400, s);
        AggregationCounters[] counters = new AggregationCounters[1];
        List<Records.Raw> out = aggregate(spec, inputs, MergeStrategy.LOSER_TREE, new Records.CollectingSink(), counters);
        Reference.assertCombined(inputs, out, spec.sortComparator(), false);
        assertEquals(7 * 400, counters[0].recordsIn());
        assertEquals(out.size(), counters[0].recordsOut());
        assertEquals(7 * 400 - out.size(), counters[0].recordsCombined());
        long outBytes = out.stream().mapToLong(r -> RecordLayout.recordSize(r.key().length, r.value().length)).sum();
        assertEquals(outBytes, counters[0].bytesOut());
        if (s == 0.0) {
            assertEquals(400, out.size(), "S=0: every key in every input folds to one record");
        }
    }

    @ParameterizedTest
    @EnumSource(MergeStrategy.class)
    void newApiCombinerMatchesReference(MergeStrategy strategy) throws IOException {
        JobAggregationSpec spec = JobAggregationSpec.fromJob(TestJobs.textIntNewCombiner());
        List<List<Records.Raw>> inputs = Workloads.sRatio(new Random(11), 5, 300, 0.5);
        Reference.assertCombined(inputs, aggregate(spec, inputs, strategy), spec.sortComparator(), false);
    }

    @Test
    void longKeysWithNewApiCombiner() throws IOException {
        JobAggregationSpec spec = JobAggregationSpec.fromJob(TestJobs.longLongNewCombiner());
        List<List<Records.Raw>> inputs = Workloads.longs(new Random(3), 6, 500, 700);
        Reference.assertCombined(inputs, aggregate(spec, inputs, MergeStrategy.BINARY_HEAP), spec.sortComparator(), true);
    }

    @Test
    void customReverseComparatorOrdersOutputDescending() throws IOException {
        JobAggregationSpec spec = JobAggregationSpec.fromJob(TestJobs.textIntReverseOrderCombiner());
        List<List<Records.Raw>> inputs = Workloads.sRatio(new Random(5), 4, 300, 0.5);
        List<Records.Raw> out = aggregate(spec, inputs, MergeStrategy.LOSER_TREE);
        Reference.assertCombined(inputs, out, spec.sortComparator(), false);
        byte[] first = out.get(0).key();
        byte[] last = out.get(out.size() - 1).key();
        assertTrue(new Text.Comparator().compare(first, 0, first.length, last, 0, last.length) > 0,
                "reverse comparator: first key is the largest in byte order");
    }

    @ParameterizedTest
    @EnumSource(MergeStrategy.class)
    void zipfSkewedKeysWithRepeatsInsideInputs(MergeStrategy strategy) throws IOException {
        JobAggregationSpec spec = JobAggregationSpec.fromJob(TestJobs.textIntOldCombiner()).withBufferSizes(512, 256);
        List<List<Records.Raw>> inputs = Workloads.zipf(new Random(99), 6, 2000, 5000, 0.99);
        Reference.assertCombined(inputs, aggregate(spec, inputs, strategy), spec.sortComparator(), false);
    }

    @ParameterizedTest
    @EnumSource(MergeStrategy.class)
    void noCombinerMergesEveryRecordInGlobalOrder(MergeStrategy strategy) throws IOException {
        JobAggregationSpec spec = JobAggregationSpec.fromJob(TestJobs.textIntOldCombiner()).withoutCombiner();
        List<List<Records.Raw>> inputs = Workloads.zipf(new Random(1), 9, 700, 300, 0.99);
        List<Records.Raw> out = aggregate(spec, inputs, strategy);
        assertEquals(9 * 700, out.size());
        Reference.assertMerged(inputs, out, spec.sortComparator(), false);
    }

    @Test
    void heapAndLoserTreeGiveIdenticalStreams() throws IOException {
        JobAggregationSpec spec = JobAggregationSpec.fromJob(TestJobs.textInt());
        List<List<Records.Raw>> inputs = Workloads.zipf(new Random(4), 13, 300, 200, 0.99);
        List<Records.Raw> heap = aggregate(spec, inputs, MergeStrategy.BINARY_HEAP);
        List<Records.Raw> tree = aggregate(spec, inputs, MergeStrategy.LOSER_TREE);
        assertEquals(heap.size(), tree.size());
        for (int i = 0; i < heap.size(); i++) {
            assertTrue(java.util.Arrays.equals(heap.get(i).key(), tree.get(i).key())
                    && java.util.Arrays.equals(heap.get(i).value(), tree.get(i).value()), "record " + i);
        }
    }

    @Test
    void emptyInputsAndNoInputs() throws IOException {
        JobAggregationSpec spec = JobAggregationSpec.fromJob(TestJobs.textIntOldCombiner());
        List<List<Records.Raw>> inputs = new ArrayList<>(Workloads.sRatio(new Random(2), 2, 50, 0.5));
        inputs.add(0, List.of());
        inputs.add(List.of());
        Reference.assertCombined(inputs, aggregate(spec, inputs, MergeStrategy.LOSER_TREE), spec.sortComparator(), false);
        assertEquals(List.of(), aggregate(spec, List.of(List.of(), List.of()), MergeStrategy.BINARY_HEAP));
        assertEquals(List.of(), aggregate(spec, List.of(), MergeStrategy.LOSER_TREE));
    }

    @Test
    void hugeValueLargerThanChunkTravelsInItsOwnChunk() throws IOException {
        JobConf job = TestJobs.textInt();
        job.setMapOutputValueClass(Text.class);
        JobAggregationSpec spec = JobAggregationSpec.fromJob(job).withBufferSizes(1024, 1024);
        String huge = "x".repeat(300_000);
        List<List<Records.Raw>> inputs = List.of(
                List.of(Records.raw(new Text("a"), new Text("small")), Records.raw(new Text("m"), new Text(huge))),
                List.of(Records.raw(new Text("b"), new Text("small")), Records.raw(new Text("z"), new Text("tail"))));
        Records.CollectingSink sink = new Records.CollectingSink();
        List<Records.Raw> out = aggregate(spec, inputs, MergeStrategy.LOSER_TREE, sink, null);
        assertEquals(4, out.size());
        assertEquals(Records.raw(new Text("m"), new Text(huge)).value().length, out.get(2).value().length);
        int oversized = 0;
        for (int i = 0; i < sink.chunks.size(); i++) {
            if (sink.capacities.get(i) > 1024) {
                oversized++;
                assertEquals(RecordLayout.recordSize(2, out.get(2).value().length), sink.chunks.get(i).length,
                        "the oversized chunk holds exactly the huge record");
            }
        }
        assertEquals(1, oversized);
    }

    @Test
    void hugeValueThroughCombinerAndIntValuesUnaffected() throws IOException {
        JobAggregationSpec spec = JobAggregationSpec.fromJob(TestJobs.textIntOldCombiner()).withBufferSizes(64, 64);
        String longKey = "k".repeat(5000);
        List<List<Records.Raw>> inputs = List.of(
                List.of(Records.raw(new Text(longKey), new IntWritable(2))),
                List.of(Records.raw(new Text(longKey), new IntWritable(3)), Records.raw(new Text("zz"), new IntWritable(1))));
        Reference.assertCombined(inputs, aggregate(spec, inputs, MergeStrategy.BINARY_HEAP), spec.sortComparator(), false);
    }
}
