package org.camdoop.shuffle.aggregation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;
import org.apache.hadoop.mapreduce.lib.reduce.LongSumReducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The streaming summing path ({@link SummingRun}, chosen for Hadoop's own summing reducers) against Hadoop running the
 * same reducer through the batch path ({@link CombiningRun} with {@link NewApiCombiner}, which a subclass of the
 * reducer gets): the same bytes out, whether the inputs are there at once or arrive chunk by chunk with the merge
 * waiting in between.
 */
class SummingRunTest {

    private static JobConf job(Class<?> key, Class<?> value, Class<?> combiner) {
        return SummingCombinerTest.job(key, value, combiner);
    }

    /** A subclass: Hadoop's path, the same sums. */
    public static final class HadoopIntSum extends IntSumReducer<Object> {
    }

    public static final class HadoopLongSum extends LongSumReducer<Object> {
    }

    private static byte[] pipelineBytes(JobConf job, List<List<Records.Raw>> inputs) throws Exception {
        JobAggregationSpec spec = JobAggregationSpec.fromJob(job);
        Records.CollectingSink sink = new Records.CollectingSink();
        MergeCombineTest.aggregate(spec, inputs, MergeStrategy.LOSER_TREE, sink, null);
        return Records.layout(Records.parseChunks(sink.chunks));
    }

    private static void assertSameAsHadoop(JobConf fast, JobConf hadoop, List<List<Records.Raw>> inputs)
            throws Exception {
        JobAggregationSpec spec = JobAggregationSpec.fromJob(fast);
        assertInstanceOf(SummingRun.class, AggregationPipeline.combined(new ByteArrayRun(new byte[0]), spec));
        JobAggregationSpec slow = JobAggregationSpec.fromJob(hadoop);
        assertInstanceOf(CombiningRun.class, AggregationPipeline.combined(new ByteArrayRun(new byte[0]), slow));
        byte[] expected = pipelineBytes(hadoop, inputs);
        assertTrue(expected.length > 0);
        assertArrayEquals(expected, pipelineBytes(fast, inputs));
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void chunkByChunkGivesHadoopsBytes(long seed) throws Exception {
        JobConf fast = job(Text.class, IntWritable.class, IntSumReducer.class);
        JobAggregationSpec hadoop = JobAggregationSpec.fromJob(job(Text.class, IntWritable.class, HadoopIntSum.class))
                .withBufferSizes(256, 128);
        List<List<Records.Raw>> inputs = Workloads.sRatio(new Random(seed), 4, 120, 0.5);
        inputs.addAll(Workloads.zipf(new Random(seed), 2, 150, 100, 0.99));
        List<Records.Raw> expected = MergeCombineTest.aggregate(hadoop, inputs, MergeStrategy.LOSER_TREE);
        List<Records.Raw> actual = BlockedRuleTest.incremental(JobAggregationSpec.fromJob(fast), inputs, seed * 13,
                true);
        assertArrayEquals(Records.layout(expected), Records.layout(actual));
    }

    @Test
    void intAndLongSumsIncludingOverflow() throws Exception {
        Random rnd = new Random(8);
        List<List<Records.Raw>> ints = new ArrayList<>();
        List<List<Records.Raw>> longs = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            List<Records.Raw> in = new ArrayList<>();
            List<Records.Raw> ln = new ArrayList<>();
            for (int j = 0; j < 3000; j++) {
                int v = rnd.nextInt(10) == 0 ? Integer.MAX_VALUE - rnd.nextInt(3) : rnd.nextInt(100) - 50;
                in.add(Records.raw(new Text("k" + rnd.nextInt(800)), new IntWritable(v)));
                long w = rnd.nextInt(10) == 0 ? Long.MAX_VALUE - rnd.nextInt(3) : rnd.nextLong();
                ln.add(Records.raw(new LongWritable(rnd.nextInt(900) - 450), new LongWritable(w)));
            }
            ints.add(in);
            longs.add(ln);
        }
        assertSameAsHadoop(job(Text.class, IntWritable.class, IntSumReducer.class),
                job(Text.class, IntWritable.class, HadoopIntSum.class), ints);
        assertSameAsHadoop(job(LongWritable.class, LongWritable.class, LongSumReducer.class),
                job(LongWritable.class, LongWritable.class, HadoopLongSum.class), longs);
    }

    /** Keys whose bytes are not what Text.write gives (non-canonical length, trailing bytes) are re-serialized. */
    @Test
    void nonCanonicalKeysComeOutAsHadoopWritesThem() throws Exception {
        Random rnd = new Random(9);
        List<List<Records.Raw>> inputs = new ArrayList<>();
        byte[] longLength = {(byte) 0x8F, 5, 'a', 'b', 'c', 'd', 'e'};
        byte[] trailing = Arrays.copyOf(Records.bytes(new Text("abcde")), 8);
        for (int i = 0; i < 4; i++) {
            List<Records.Raw> in = new ArrayList<>();
            for (int j = 0; j < 1000; j++) {
                in.add(Records.raw(new Text("k" + rnd.nextInt(1000)), new IntWritable(rnd.nextInt(9))));
            }
            in.add(new Records.Raw(longLength, Records.bytes(new IntWritable(i))));
            in.add(new Records.Raw(trailing, Records.bytes(new IntWritable(10 * i))));
            inputs.add(in);
        }
        assertSameAsHadoop(job(Text.class, IntWritable.class, IntSumReducer.class),
                job(Text.class, IntWritable.class, HadoopIntSum.class), inputs);
    }

    /**
     * A grouping comparator coarser than the keys: groups are runs of adjacent keys it calls equal, each written under
     * its last key, as Hadoop's reduce context makes them; compared with Hadoop's reducer over the whole merged
     * stream (keys and values canonical, so a group of one comes out the same either way).
     */
    @Test
    void aCoarseGroupingComparatorGroupsAdjacentKeysAsHadoopDoes() throws Exception {
        Random rnd = new Random(10);
        List<List<Records.Raw>> inputs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            List<Records.Raw> in = new ArrayList<>();
            for (int j = 0; j < 1000; j++) {
                in.add(Records.raw(new Text("k" + rnd.nextInt(1000)), new IntWritable(rnd.nextInt(9))));
            }
            inputs.add(in);
        }
        JobConf fast = job(Text.class, IntWritable.class, IntSumReducer.class);
        fast.setCombinerKeyGroupingComparator(SummingCombinerTest.PrefixGrouping.class);
        JobAggregationSpec spec = JobAggregationSpec.fromJob(fast);
        List<Records.Raw> merged = MergeCombineTest.aggregate(JobAggregationSpec.fromJob(TestJobs.textInt()), inputs,
                MergeStrategy.LOSER_TREE);
        RecordBatch all = new RecordBatch();
        for (Records.Raw r : merged) {
            all.append(r.key(), 0, r.key().length, r.value(), 0, r.value().length);
        }
        ByteRanges everything = new ByteRanges();
        everything.add(0, all.byteLength());
        RecordBatch hadoop = new RecordBatch();
        new NewApiCombiner(IntSumReducer.class, spec).combine(all.iterator(everything), hadoop);
        assertArrayEquals(Arrays.copyOf(hadoop.data(), hadoop.byteLength()), pipelineBytes(fast, inputs));
    }

    /** A value too short for an IntWritable fails in a group of several, as deserializing it would; alone, it passes. */
    @Test
    void aShortValueFailsOnlyWhereTheCombinerWouldReadIt() throws Exception {
        JobConf fast = job(Text.class, IntWritable.class, IntSumReducer.class);
        Records.Raw shortA = new Records.Raw(Records.bytes(new Text("a")), new byte[] {1, 2});
        Records.Raw shortB = new Records.Raw(Records.bytes(new Text("b")), new byte[] {3});
        List<List<Records.Raw>> alone = List.of(List.of(shortA), List.of(shortB));
        assertArrayEquals(Records.layout(List.of(shortA, shortB)), pipelineBytes(fast, alone));
        EOFException e = assertThrows(EOFException.class,
                () -> pipelineBytes(fast, List.of(List.of(shortA), List.of(shortA))));
        assertEquals("combiner value of 2 bytes is not a IntWritable", e.getMessage());
    }
}
