package org.camdoop.shuffle.aggregation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.io.Text;
import org.junit.jupiter.api.Test;

class KeyStriperTest {
    private final JobAggregationSpec spec = JobAggregationSpec.fromJob(TestJobs.textInt());

    @Test
    void everyRecordInExactlyOneSortedStripeAndUnionIsTheInput() throws IOException {
        List<Records.Raw> input =
                Records.sorted(Workloads.zipf(new Random(8), 1, 5000, 2000, 0.99).get(0), spec.sortComparator());
        KeyStriper striper = new KeyStriper(6);
        List<SortedRun> stripes = striper.split(ByteArrayRun.source(Records.layout(input)));
        List<List<Records.Raw>> outputs = new ArrayList<>();
        Map<String, Integer> stripeOfKey = new HashMap<>();
        int total = 0;
        for (int s = 0; s < 6; s++) {
            List<Records.Raw> records = Records.drain(stripes.get(s));
            outputs.add(records);
            total += records.size();
            assertTrue(records.size() > 5000 / 6 / 3, "stripe " + s + " got a fair share: " + records.size());
            for (int i = 0; i < records.size(); i++) {
                Records.Raw r = records.get(i);
                assertEquals(s, striper.stripeOf(r.key(), 0, r.key().length));
                Integer previous = stripeOfKey.put(new String(r.key(), java.nio.charset.StandardCharsets.UTF_8), s);
                assertTrue(previous == null || previous == s, "a key in two stripes");
                if (i > 0) {
                    byte[] a = records.get(i - 1).key();
                    assertTrue(spec.sortComparator().compare(a, 0, a.length, r.key(), 0, r.key().length) <= 0, "sorted");
                }
            }
        }
        assertEquals(input.size(), total, "every record in exactly one stripe");
        Reference.assertMerged(List.of(input), MergeCombineTest.aggregate(spec, outputs, MergeStrategy.LOSER_TREE),
                spec.sortComparator(), false);
    }

    @Test
    void stripeDependsOnlyOnKeyBytesWherePresentInABuffer() {
        KeyStriper a = new KeyStriper(6);
        KeyStriper b = new KeyStriper(6);
        byte[] key = Records.bytes(new Text("hello"));
        byte[] padded = new byte[key.length + 7];
        System.arraycopy(key, 0, padded, 3, key.length);
        assertEquals(a.stripeOf(key, 0, key.length), b.stripeOf(padded, 3, key.length));
        // Pinned values: a change of the hash would silently split a job across servers running different versions
        // (still correct, combined only at the root). Changed once, for the word-at-a-time hash.
        assertEquals(List.of(1, 0, 5, 5), List.of(a.stripeOf(Records.bytes(new Text("a")), 0, 2),
                a.stripeOf(Records.bytes(new Text("b")), 0, 2), a.stripeOf(Records.bytes(new Text("the")), 0, 4),
                a.stripeOf(new byte[0], 0, 0)));
    }

    @Test
    void theHashOfAKeyIsTheSameWhereverItSitsInItsArray() {
        // The tail is read as one word where the array allows, else as the word ending at the key, else byte by byte:
        // every key of 0-20 bytes at every offset of arrays up to 28 bytes must hash as it does alone in a big buffer.
        Random random = new Random(3);
        for (int size = 0; size <= 28; size++) {
            byte[] array = new byte[size];
            random.nextBytes(array);
            for (int offset = 0; offset <= size; offset++) {
                for (int length = 0; offset + length <= size && length <= 20; length++) {
                    byte[] alone = new byte[64];
                    System.arraycopy(array, offset, alone, 0, length);
                    assertEquals(KeyStriper.hash(alone, 0, length), KeyStriper.hash(array, offset, length),
                            "size " + size + ", offset " + offset + ", length " + length);
                }
            }
        }
    }

    @Test
    void theHashIsPinnedForKeysOfZeroToTwentyFourBytes() {
        // Computed with the byte-at-a-time tail of 2026-11-26 (before 47fbed5): the promise that daemons of different
        // versions stripe alike, whatever the implementation of the tail.
        byte[] buffer = new byte[64];
        for (int i = 0; i < buffer.length; i++) {
            buffer[i] = (byte) (i * 37 + 11);
        }
        int[] pinned = {460121093, -2071030416, 1998129974, 2014772628, 293392046, -1576432877, -475677027, -477663650,
            -1916450840, -1524064394, 105064695, -1849959275, -1460507968, 2034286352, -231463591, -2143062980,
            -1668407782, -1681813620, -1116871047, 755819747, 453683889, 1776977623, -937370410, -2020195787,
            2050868391};
        for (int length = 0; length < pinned.length; length++) {
            assertEquals(pinned[length], KeyStriper.hash(buffer, 3, length), "length " + length);
        }
    }

    @Test
    void rejectsBadStripeCounts() {
        assertThrows(IllegalArgumentException.class, () -> new KeyStriper(0));
        assertThrows(IllegalArgumentException.class,
                () -> new KeyStriper(3).stripe(new ByteArrayRun(new byte[0]), 3));
    }
}
