package org.camdoop.shuffle.aggregation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.io.RawComparator;

/**
 * The obvious answer the engine is checked against: every input record in a TreeMap keyed by raw key under the job's
 * comparator, values summed (combiner) or kept as a sorted multiset (merge only).
 */
final class Reference {
    private Reference() {}

    private static TreeMap<byte[], List<Long>> group(List<List<Records.Raw>> inputs, RawComparator<Object> cmp,
            boolean longValues) throws IOException {
        TreeMap<byte[], List<Long>> groups = new TreeMap<>((a, b) -> cmp.compare(a, 0, a.length, b, 0, b.length));
        for (List<Records.Raw> input : inputs) {
            for (Records.Raw r : input) {
                groups.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(value(r.value(), longValues));
            }
        }
        return groups;
    }

    static long value(byte[] raw, boolean longValue) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(raw));
        return longValue ? in.readLong() : in.readInt();
    }

    /** With a summing combiner: each key exactly once, in order, with the sum of all its values. */
    static void assertCombined(List<List<Records.Raw>> inputs, List<Records.Raw> output, RawComparator<Object> cmp,
            boolean longValues) throws IOException {
        TreeMap<byte[], List<Long>> expected = group(inputs, cmp, longValues);
        assertEquals(expected.size(), output.size(), "one output record per distinct key");
        int i = 0;
        for (Map.Entry<byte[], List<Long>> e : expected.entrySet()) {
            Records.Raw got = output.get(i++);
            assertEquals(0, cmp.compare(e.getKey(), 0, e.getKey().length, got.key(), 0, got.key().length),
                    "key order at output record " + (i - 1));
            long sum = e.getValue().stream().mapToLong(Long::longValue).sum();
            assertEquals(sum, value(got.value(), longValues), "sum for output record " + (i - 1));
        }
    }

    /** Merge only: every input record once, keys non-decreasing, each key's values equal as a multiset. */
    static void assertMerged(List<List<Records.Raw>> inputs, List<Records.Raw> output, RawComparator<Object> cmp,
            boolean longValues) throws IOException {
        for (int i = 1; i < output.size(); i++) {
            byte[] a = output.get(i - 1).key();
            byte[] b = output.get(i).key();
            assertTrue(cmp.compare(a, 0, a.length, b, 0, b.length) <= 0, "output out of order at record " + i);
        }
        TreeMap<byte[], List<Long>> expected = group(inputs, cmp, longValues);
        TreeMap<byte[], List<Long>> actual = group(List.of(output), cmp, longValues);
        assertEquals(expected.size(), actual.size(), "distinct keys");
        for (Map.Entry<byte[], List<Long>> e : expected.entrySet()) {
            List<Long> want = new ArrayList<>(e.getValue());
            List<Long> got = new ArrayList<>(actual.get(e.getKey()));
            want.sort(null);
            got.sort(null);
            assertEquals(want, got, "values of a key");
        }
    }
}
