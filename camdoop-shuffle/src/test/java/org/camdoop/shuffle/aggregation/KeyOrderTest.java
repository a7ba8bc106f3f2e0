package org.camdoop.shuffle.aggregation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableComparator;
import org.camdoop.shuffle.records.RecordLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The fast key order must answer, in sign, exactly what Hadoop's comparator answers, for whole keys and for the
 * prefix-first comparison of the merge, on keys chosen to hit every branch: bodies around eight bytes, equal prefixes,
 * zero bytes where the padding is, bytes above 0x7f, equal keys.
 */
class KeyOrderTest {

    @SuppressWarnings("unchecked")
    private static RawComparator<Object> comparatorOf(Class<?> keyClass) {
        return (RawComparator<Object>) (RawComparator<?>) WritableComparator.get(keyClass.asSubclass(
                org.apache.hadoop.io.WritableComparable.class));
    }

    private static byte[] serialize(Writable w) throws IOException {
        DataOutputBuffer out = new DataOutputBuffer();
        w.write(out);
        return java.util.Arrays.copyOf(out.getData(), out.getLength());
    }

    /**
     * Bodies of 0-28 bytes cut from six random bases and sometimes changed in one byte, over an alphabet with 0x00 and
     * 0xff: equal keys, keys one a prefix of another and keys first differing in any of the words are all common.
     */
    private static List<byte[]> bodies(Random rnd, int count) {
        byte[] alphabet = {0, 1, 'a', 'b', (byte) 0x7f, (byte) 0x80, (byte) 0xff};
        List<byte[]> bases = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            byte[] base = new byte[28];
            for (int j = 0; j < base.length; j++) {
                base[j] = alphabet[rnd.nextInt(alphabet.length)];
            }
            bases.add(base);
        }
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] b = java.util.Arrays.copyOf(bases.get(rnd.nextInt(bases.size())), rnd.nextInt(29));
            if (b.length > 0 && rnd.nextBoolean()) {
                b[rnd.nextInt(b.length)] = alphabet[rnd.nextInt(alphabet.length)];
            }
            out.add(b);
        }
        return out;
    }

    private static List<byte[]> keys(String keyClass, Random rnd, int count) throws IOException {
        List<byte[]> keys = new ArrayList<>();
        for (byte[] body : bodies(rnd, count)) {
            if (keyClass.equals("text")) {
                Text t = new Text();
                t.set(body);
                keys.add(serialize(t));
            } else {
                keys.add(serialize(new BytesWritable(body)));
            }
        }
        return keys;
    }

    @ParameterizedTest
    @ValueSource(strings = {"text", "bytes"})
    void answersWhatHadoopsComparatorAnswers(String keyClass) throws IOException {
        RawComparator<Object> hadoop = comparatorOf(keyClass.equals("text") ? Text.class : BytesWritable.class);
        KeyOrder order = KeyOrder.of(hadoop);
        assertTrue(order.byteOrdered());
        List<byte[]> keys = keys(keyClass, new Random(5), 400);
        // Keys at an offset inside a larger array, as records sit in chunks.
        byte[] chunk = new byte[4096];
        int compared = 0;
        for (byte[] a : keys) {
            for (byte[] b : keys) {
                System.arraycopy(a, 0, chunk, 3, a.length);
                int bAt = 3 + a.length + 5;
                System.arraycopy(b, 0, chunk, bAt, b.length);
                int expected = Integer.signum(hadoop.compare(a, 0, a.length, b, 0, b.length));
                assertEquals(expected, Integer.signum(order.compare(chunk, 3, a.length, chunk, bAt, b.length)));
                NormalizedKey x = new NormalizedKey();
                NormalizedKey y = new NormalizedKey();
                x.set(order, chunk, 3, a.length);
                y.set(order, chunk, bAt, b.length);
                assertEquals(expected, Integer.signum(x.compareTo(y, order)));
                // At the very end of its array (no eight bytes to load past it), as in a chunk's last record.
                byte[] alone = java.util.Arrays.copyOf(b, b.length);
                y.set(order, alone, 0, alone.length);
                assertEquals(expected, Integer.signum(x.compareTo(y, order)));
                y.movedTo(java.util.Arrays.copyOf(alone, alone.length));
                assertEquals(expected, Integer.signum(x.compareTo(y, order)), "after moving to a copy");
                compared++;
            }
        }
        assertEquals(160_000, compared);
    }

    @Test
    void theMergeOrdersInputsAsHadoopWouldTiesByIndex() throws IOException {
        RawComparator<Object> hadoop = comparatorOf(Text.class);
        List<byte[]> keys = keys("text", new Random(9), 60);
        List<SortedRun> runs = new ArrayList<>();
        for (byte[] k : keys) {
            byte[] record = new byte[RecordLayout.recordSize(k.length, 0)];
            RecordLayout.writeRecord(record, 0, k, 0, k.length, new byte[0], 0, 0);
            runs.add(new ByteArrayRun(record));
        }
        InputOrder order = new InputOrder(runs, hadoop);
        for (int i = 0; i < runs.size(); i++) {
            assertEquals(Advance.RECORD, runs.get(i).advance());
            order.refresh(i);
        }
        for (int a = 0; a < keys.size(); a++) {
            for (int b = 0; b < keys.size(); b++) {
                int c = hadoop.compare(keys.get(a), 0, keys.get(a).length, keys.get(b), 0, keys.get(b).length);
                assertEquals(c < 0 || (c == 0 && a < b), order.less(a, b), a + " vs " + b);
            }
        }
    }

    @Test
    void otherComparatorsAndMalformedKeysGoToTheJobsComparator() throws IOException {
        assertFalse(KeyOrder.of(comparatorOf(IntWritable.class)).byteOrdered());
        RawComparator<Object> subclass = new Text.Comparator() { };
        assertFalse(KeyOrder.of(subclass).byteOrdered(), "a subclass may order differently");

        KeyOrder text = KeyOrder.of(comparatorOf(Text.class));
        assertEquals(-1, text.bodyStart(new byte[0], 0, 0), "an empty key has no length header");
        byte[] twoByteHeader = {(byte) -113, 1, 'x'}; // a vint of two bytes: its marker and one length byte
        assertEquals(2, text.bodyStart(twoByteHeader, 0, 3));
        assertEquals(-1, text.bodyStart(twoByteHeader, 0, 1), "header longer than the key");
        // The job's comparator answers for a key without a body, as it would have: here Text's throws.
        assertThrows(ArrayIndexOutOfBoundsException.class,
                () -> text.compare(new byte[0], 0, 0, new byte[] {1, 'a'}, 0, 2));

        KeyOrder bytes = KeyOrder.of(comparatorOf(BytesWritable.class));
        assertEquals(-1, bytes.bodyStart(new byte[3], 0, 3), "shorter than BytesWritable's 4-byte length");
        byte[] k = serialize(new BytesWritable(new byte[] {9}));
        assertEquals(4, bytes.bodyStart(k, 0, k.length));
    }
}
