package org.camdoop.shuffle.aggregation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;
import org.apache.hadoop.mapreduce.lib.reduce.LongSumReducer;
import org.junit.jupiter.api.Test;

/** The raw summing path against Hadoop's own run of the same reducer class: same bytes out, batch by batch. */
class SummingCombinerTest {

    static JobConf job(Class<?> key, Class<?> value, Class<?> combiner) {
        JobConf job = new JobConf(false);
        job.setMapOutputKeyClass(key);
        job.setMapOutputValueClass(value);
        job.setClass(MRJobConfig.COMBINE_CLASS_ATTR, combiner, Reducer.class);
        return job;
    }

    /** Groups keys by their first two bytes only: groups that span different keys, to check the last-key rule. */
    public static final class PrefixGrouping extends WritableComparator {
        public PrefixGrouping() {
            super(Text.class);
        }

        @Override
        public int compare(byte[] b1, int s1, int l1, byte[] b2, int s2, int l2) {
            return compareBytes(b1, s1, Math.min(2, l1), b2, s2, Math.min(2, l2));
        }
    }

    private static byte[] run(CombinerFunction f, List<Records.Raw> sorted) throws IOException {
        RecordBatch in = new RecordBatch();
        for (Records.Raw r : sorted) {
            in.append(r.key(), 0, r.key().length, r.value(), 0, r.value().length);
        }
        ByteRanges all = new ByteRanges();
        all.add(0, in.byteLength());
        RecordBatch out = new RecordBatch();
        f.combine(in.iterator(all), out);
        return Arrays.copyOf(out.data(), out.byteLength());
    }

    private static void assertIdentical(JobConf job, List<Records.Raw> records) throws IOException {
        JobAggregationSpec spec = JobAggregationSpec.fromJob(job);
        CombinerFactory factory = spec.combiner().orElseThrow();
        CombinerFunction fast = factory.create(spec);
        assertInstanceOf(SummingCombiner.class, fast, "the fast path is chosen for " + factory);
        CombinerFunction hadoop = new NewApiCombiner(factory.combinerClass(), spec);
        List<Records.Raw> sorted = Records.sorted(records, spec.sortComparator());
        byte[] expected = run(hadoop, sorted);
        assertTrue(expected.length > 0);
        assertArrayEquals(expected, run(fast, sorted));
        assertArrayEquals(expected, run(fast, sorted), "a second batch through the same function");
    }

    @Test
    void intSumMatchesHadoopIncludingOverflow() throws IOException {
        Random rnd = new Random(5);
        List<Records.Raw> records = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            int v = rnd.nextInt(10) == 0 ? Integer.MAX_VALUE - rnd.nextInt(3) : rnd.nextInt(100) - 50;
            records.add(Records.raw(new Text("k" + rnd.nextInt(300)), new IntWritable(v)));
        }
        assertIdentical(job(Text.class, IntWritable.class, IntSumReducer.class), records);
    }

    @Test
    void longSumMatchesHadoop() throws IOException {
        Random rnd = new Random(6);
        List<Records.Raw> records = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            long v = rnd.nextInt(10) == 0 ? Long.MAX_VALUE - rnd.nextInt(3) : rnd.nextLong();
            records.add(Records.raw(new LongWritable(rnd.nextInt(500) - 250), new LongWritable(v)));
        }
        assertIdentical(job(LongWritable.class, LongWritable.class, LongSumReducer.class), records);
    }

    @Test
    void aGroupingComparatorCoarserThanTheKeyGroupsAsHadoopDoesAndWritesTheLastKey() throws IOException {
        Random rnd = new Random(7);
        List<Records.Raw> records = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            records.add(Records.raw(new Text("k" + rnd.nextInt(1000)), new IntWritable(rnd.nextInt(9))));
        }
        JobConf job = job(Text.class, IntWritable.class, IntSumReducer.class);
        job.setCombinerKeyGroupingComparator(PrefixGrouping.class);
        assertIdentical(job, records);
    }

    /** Keys whose bytes are not what Text.write gives (non-canonical length, trailing bytes) are re-serialized. */
    @Test
    void nonCanonicalTextKeysComeOutAsHadoopWritesThem() throws IOException {
        List<Records.Raw> records = new ArrayList<>();
        byte[] canonical = Records.bytes(new Text("abcde"));
        byte[] longLength = {(byte) 0x8F, 5, 'a', 'b', 'c', 'd', 'e'};
        byte[] trailing = Arrays.copyOf(canonical, canonical.length + 2);
        for (int i = 0; i < 3; i++) {
            records.add(new Records.Raw(longLength, Records.bytes(new IntWritable(i))));
            records.add(new Records.Raw(trailing, Records.bytes(new IntWritable(10 * i))));
            records.add(new Records.Raw(Records.bytes(new Text("zz")), Records.bytes(new IntWritable(i))));
        }
        assertIdentical(job(Text.class, IntWritable.class, IntSumReducer.class), records);
    }

    @Test
    void otherClassesAndValueTypesTakeHadoopsPath() throws IOException {
        JobAggregationSpec subclass = JobAggregationSpec.fromJob(job(Text.class, IntWritable.class, MyIntSum.class));
        assertInstanceOf(NewApiCombiner.class, subclass.combiner().orElseThrow().create(subclass));
        JobAggregationSpec longValues =
                JobAggregationSpec.fromJob(job(Text.class, LongWritable.class, IntSumReducer.class));
        assertInstanceOf(NewApiCombiner.class, longValues.combiner().orElseThrow().create(longValues));
    }

    @Test
    void aShortValueFailsAsDeserializingItWould() throws IOException {
        JobAggregationSpec spec = JobAggregationSpec.fromJob(job(Text.class, IntWritable.class, IntSumReducer.class));
        CombinerFunction fast = spec.combiner().orElseThrow().create(spec);
        List<Records.Raw> bad = List.of(new Records.Raw(Records.bytes(new Text("a")), new byte[] {1, 2}),
                new Records.Raw(Records.bytes(new Text("a")), new byte[] {1, 2}));
        assertThrows(EOFException.class, () -> run(fast, bad));
        CombinerFunction hadoop = new NewApiCombiner(IntSumReducer.class, spec);
        assertThrows(EOFException.class, () -> run(hadoop, bad));
    }

    /** A subclass may override reduce, setup or cleanup: never treated as the summing reducer. */
    public static final class MyIntSum extends IntSumReducer<Text> {
    }
}
