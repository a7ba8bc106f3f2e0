package org.camdoop.shuffle.records;

import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.io.RawComparator;

/**
 * The records of one chunk, indexed: where each starts and where its key lies, for the code that hands on whole key
 * groups only and so must find the last group of every chunk ({@code GenerationOutput}, {@code WholeGroupInput}).
 * Indexing reads the record headers once and copies nothing; the index is reused chunk after chunk. Single-threaded.
 */
public final class ChunkIndex {

    private final RecordCursor cursor;
    private final RawBytes key = new RawBytes();
    private final RawBytes value = new RawBytes();
    private byte[] data = new byte[0];
    private int[] starts = new int[64];
    private int[] keyOffsets = new int[64];
    private int[] keyLengths = new int[64];
    private int count;

    /** An index whose errors name {@code label}. */
    public ChunkIndex(String label) {
        this.cursor = new RecordCursor(label);
    }

    /**
     * Indexes the records of {@code a[from, from + length)}.
     *
     * @return how many there are
     * @throws IOException if the bytes are not whole records
     */
    public int index(byte[] a, int from, int length) throws IOException {
        data = a;
        cursor.reset(a, from, length);
        count = 0;
        while (true) {
            int start = cursor.position();
            if (!cursor.next(key, value)) {
                return count;
            }
            if (count == starts.length) {
                starts = Arrays.copyOf(starts, 2 * count);
                keyOffsets = Arrays.copyOf(keyOffsets, 2 * count);
                keyLengths = Arrays.copyOf(keyLengths, 2 * count);
            }
            starts[count] = start;
            keyOffsets[count] = key.offset();
            keyLengths[count] = key.length();
            count++;
        }
    }

    /** Where record {@code record} starts in the indexed array. */
    public int start(int record) {
        return starts[record];
    }

    /** Record {@code record}'s key against {@code other} (a whole serialized key), in {@code order}. */
    public int compare(RawComparator<Object> order, int record, byte[] other) {
        return order.compare(data, keyOffsets[record], keyLengths[record], other, 0, other.length);
    }

    /** The first record, at or after {@code first}, of the group of the chunk's last record (same key). */
    public int lastGroup(RawComparator<Object> order, int first) {
        int last = count - 1;
        int group = last;
        while (group > first && order.compare(data, keyOffsets[group - 1], keyLengths[group - 1], data,
                keyOffsets[last], keyLengths[last]) == 0) {
            group--;
        }
        return group;
    }

    /** A copy of record {@code record}'s key. */
    public byte[] key(int record) {
        return Arrays.copyOfRange(data, keyOffsets[record], keyOffsets[record] + keyLengths[record]);
    }
}
