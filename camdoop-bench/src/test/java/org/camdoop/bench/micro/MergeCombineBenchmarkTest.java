package org.camdoop.bench.micro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.io.WritableUtils;
import org.camdoop.shuffle.aggregation.AggregationCounters;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MergeCombineBenchmarkTest {

    private static MergeCombineBenchmark prepared(int fanIn, double ratioS) {
        MergeCombineBenchmark b = new MergeCombineBenchmark();
        b.fanIn = fanIn;
        b.ratioS = ratioS;
        b.setUp();
        return b;
    }

    @ParameterizedTest
    @CsvSource({"6, 0", "6, 1", "27, 0", "27, 1"})
    void mergeCombineEmitsEachDistinctKeyOnceWithItsCount(int fanIn, double ratioS) throws IOException {
        MergeCombineBenchmark b = prepared(fanIn, ratioS);
        MergeInputs inputs = b.inputs();
        int perRun = MergeCombineBenchmark.TOTAL_RECORDS / fanIn;
        assertEquals((long) fanIn * perRun, inputs.records());
        assertEquals(ratioS == 0 ? perRun : (long) fanIn * perRun, inputs.distinctKeys());

        List<byte[]> chunks = new ArrayList<>();
        MergeInputRate rate = new MergeInputRate();
        AggregationCounters counters = b.run(b.combiningSpec(), (chunk, length) -> chunks.add(
                Arrays.copyOf(chunk, length)), rate);
        List<Record> out = parse(chunks);

        assertEquals(inputs.distinctKeys(), out.size());
        assertEquals(inputs.distinctKeys(), counters.recordsOut());
        int expectedCount = ratioS == 0 ? fanIn : 1;
        long sum = 0;
        RawComparator<Object> order = b.combiningSpec().sortComparator();
        for (int i = 0; i < out.size(); i++) {
            assertEquals(expectedCount, out.get(i).value(), "sum of key " + i);
            sum += out.get(i).value();
            if (i > 0) {
                byte[] prev = out.get(i - 1).key();
                byte[] key = out.get(i).key();
                assertTrue(order.compare(prev, 0, prev.length, key, 0, key.length) < 0, "keys strictly ascending at " + i);
            }
        }
        assertEquals(inputs.records(), sum, "every input 1 counted once");
        assertEquals(inputs.records(), rate.inputRecords);
        assertEquals(inputs.bytes(), rate.inputBytes);
    }

    @ParameterizedTest
    @CsvSource({"6, 0", "27, 1"})
    void benchmarkMethodsReturnTheRecordsSentAndCountTheirInput(int fanIn, double ratioS) throws IOException {
        MergeCombineBenchmark b = prepared(fanIn, ratioS);
        MergeInputRate rate = new MergeInputRate();
        assertEquals(b.inputs().distinctKeys(), b.mergeCombine(rate));
        assertEquals(b.inputs().records(), b.mergeOnly(rate), "merge only forwards every record");
        assertEquals(2 * b.inputs().records(), rate.inputRecords);
        assertEquals(2 * b.inputs().bytes(), rate.inputBytes);
        rate.reset();
        assertEquals(0, rate.inputRecords + rate.inputBytes);
    }

    /** One output record: the Text key as serialized, the IntWritable value. */
    private record Record(byte[] key, int value) {}

    /** Parses IFile-layout chunks (vint key length, vint value length, key, value). */
    private static List<Record> parse(List<byte[]> chunks) throws IOException {
        List<Record> records = new ArrayList<>();
        for (byte[] c : chunks) {
            int pos = 0;
            while (pos < c.length) {
                int keyLength = WritableComparator.readVInt(c, pos);
                pos += WritableUtils.decodeVIntSize(c[pos]);
                int valueLength = WritableComparator.readVInt(c, pos);
                pos += WritableUtils.decodeVIntSize(c[pos]);
                assertEquals(4, valueLength);
                byte[] key = Arrays.copyOfRange(c, pos, pos + keyLength);
                records.add(new Record(key, WritableComparator.readInt(c, pos + keyLength)));
                pos += keyLength + valueLength;
            }
        }
        return records;
    }
}
