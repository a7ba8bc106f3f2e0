package org.camdoop.workload;

import java.util.Arrays;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.util.IndexedSortable;
import org.apache.hadoop.util.QuickSort;

/**
 * One server's map output records before they are written: key characters packed in one growing byte array, a value,
 * and the HashPartitioner partition per record, then sorted by (partition, key). Keys are ASCII (the sort relies on
 * it). One instance is {@link #clear() cleared} and reused for every server, so generating a workload allocates a
 * handful of arrays rather than objects per record. Not thread-safe.
 */
final class ServerRecords implements IndexedSortable {
    private final int reducers;
    private byte[] keyBytes = new byte[1 << 16];
    private int keyBytesUsed;
    private int[] keyOffset = new int[1 << 12];
    private byte[] keyLength = new byte[1 << 12];
    private int[] value = new int[1 << 12];
    private int[] partition = new int[1 << 12];
    /** Record indices in sorted order once {@link #sort()} ran; the arrays above stay in insertion order. */
    private int[] order = new int[1 << 12];
    private int size;
    /** Scratch for {@link #sort()}: packed (prefix, index) of one bucket, and the bucket's records by index. */
    private long[] packed = new long[0];
    private int[] bucket = new int[0];

    private static final int PREFIX_BYTES = 5;
    private static final int INDEX_BITS = 63 - 8 * PREFIX_BYTES;
    private static final long INDEX_MASK = (1L << INDEX_BITS) - 1;
    private static final int SHORT_RUN = 16;

    ServerRecords(int reducers) {
        this.reducers = reducers;
    }

    void clear() {
        keyBytesUsed = 0;
        size = 0;
    }

    int size() {
        return size;
    }

    /** Appends key {@code serial} of {@code keys} with {@code count} as its value; returns the key's length. */
    int add(KeyStrings keys, long serial, int count) {
        ensureRoom();
        return append(keys.write(serial, keyBytes, keyBytesUsed), count);
    }

    /** Appends the ASCII key {@code chars} (at most {@link KeyStrings#MAX_LENGTH} bytes) with {@code count}. */
    int add(byte[] chars, int count) {
        if (chars.length > KeyStrings.MAX_LENGTH) {
            throw new IllegalArgumentException("key longer than " + KeyStrings.MAX_LENGTH + " bytes");
        }
        for (byte b : chars) {
            if (b < 0) {
                throw new IllegalArgumentException("keys must be ASCII");
            }
        }
        ensureRoom();
        System.arraycopy(chars, 0, keyBytes, keyBytesUsed, chars.length);
        return append(chars.length, count);
    }

    private void ensureRoom() {
        if (keyBytesUsed + KeyStrings.MAX_LENGTH > keyBytes.length) {
            keyBytes = Arrays.copyOf(keyBytes, keyBytes.length * 2);
        }
        if (size == value.length) {
            int capacity = size * 2;
            keyOffset = Arrays.copyOf(keyOffset, capacity);
            keyLength = Arrays.copyOf(keyLength, capacity);
            value = Arrays.copyOf(value, capacity);
            partition = Arrays.copyOf(partition, capacity);
            order = Arrays.copyOf(order, capacity);
        }
    }

    /** Records the key just written at the end of the key bytes. */
    private int append(int length, int count) {
        keyOffset[size] = keyBytesUsed;
        keyLength[size] = (byte) length;
        value[size] = count;
        // Text.hashCode() is WritableComparator.hashBytes over the characters; this is HashPartitioner's formula.
        partition[size] = (WritableComparator.hashBytes(keyBytes, keyBytesUsed, length) & Integer.MAX_VALUE) % reducers;
        order[size] = size;
        keyBytesUsed += length;
        size++;
        return length;
    }

    /**
     * Sorts by partition, then by key in Text's order (unsigned bytes of the characters). Records are bucketed by
     * partition first, then each bucket is sorted as primitive longs packing the key's first five bytes above the
     * record's index in the bucket; only records whose five-byte prefixes tie are then compared in full. This is
     * several times faster than an indirect comparison sort, and the result is the same total order.
     */
    void sort() {
        int[] start = new int[reducers + 1];
        for (int i = 0; i < size; i++) {
            start[partition[i] + 1]++;
        }
        for (int p = 0; p < reducers; p++) {
            start[p + 1] += start[p];
        }
        int[] next = Arrays.copyOf(start, reducers);
        for (int i = 0; i < size; i++) {
            order[next[partition[i]]++] = i;
        }
        for (int p = 0; p < reducers; p++) {
            sortBucket(start[p], start[p + 1]);
        }
    }

    private void sortBucket(int from, int to) {
        int n = to - from;
        if (n < 2) {
            return;
        }
        if (n > INDEX_MASK) {
            // Too many records to pack an index beside the prefix: fall back to Hadoop's sort of MapTask.
            new QuickSort().sort(this, from, to);
            return;
        }
        if (packed.length < n) {
            packed = new long[Math.max(n, packed.length * 2)];
            bucket = new int[packed.length];
        }
        for (int i = 0; i < n; i++) {
            int record = order[from + i];
            bucket[i] = record;
            packed[i] = (prefix(record) << INDEX_BITS) | i;
        }
        Arrays.sort(packed, 0, n);
        for (int i = 0; i < n; i++) {
            order[from + i] = bucket[(int) (packed[i] & INDEX_MASK)];
        }
        // Equal prefixes: finish those runs with full comparisons. With random keys they are rare and short.
        int runStart = 0;
        for (int i = 1; i <= n; i++) {
            if (i == n || (packed[i] >>> INDEX_BITS) != (packed[runStart] >>> INDEX_BITS)) {
                if (i - runStart > SHORT_RUN) {
                    new QuickSort().sort(this, from + runStart, from + i);
                } else if (i - runStart > 1) {
                    insertionSort(from + runStart, from + i);
                }
                runStart = i;
            }
        }
    }

    /**
     * The key's first five bytes, big-endian, zero-padded (a shorter key sorts first, as in Text order). Keys are
     * ASCII, so the top bit is clear and the packed long stays non-negative.
     */
    private long prefix(int record) {
        long prefix = 0;
        int offset = keyOffset[record];
        int length = keyLength[record];
        for (int b = 0; b < PREFIX_BYTES; b++) {
            prefix = (prefix << 8) | (b < length ? keyBytes[offset + b] & 0xFF : 0);
        }
        return prefix;
    }

    private void insertionSort(int from, int to) {
        for (int i = from + 1; i < to; i++) {
            for (int j = i; j > from && compare(j - 1, j) > 0; j--) {
                swap(j - 1, j);
            }
        }
    }

    @Override
    public int compare(int i, int j) {
        int a = order[i];
        int b = order[j];
        if (partition[a] != partition[b]) {
            return Integer.compare(partition[a], partition[b]);
        }
        return WritableComparator.compareBytes(keyBytes, keyOffset[a], keyLength[a], keyBytes, keyOffset[b], keyLength[b]);
    }

    @Override
    public void swap(int i, int j) {
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
    }

    // Accessors by sorted position.

    int partitionAt(int position) {
        return partition[order[position]];
    }

    int valueAt(int position) {
        return value[order[position]];
    }

    int keyOffsetAt(int position) {
        return keyOffset[order[position]];
    }

    int keyLengthAt(int position) {
        return keyLength[order[position]];
    }

    byte[] keyBytes() {
        return keyBytes;
    }
}
