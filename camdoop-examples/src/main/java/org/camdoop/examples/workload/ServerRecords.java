package org.camdoop.examples.workload;

import java.util.Arrays;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.util.IndexedSortable;
import org.apache.hadoop.util.QuickSort;

/**
 * One server's map output records before they are written: key characters packed in one growing byte array, a value,
 * and the HashPartitioner partition per record, then sorted by (partition, key) with Hadoop's own {@link QuickSort} as
 * MapTask's sort buffer is. One instance is {@link #clear() cleared} and reused for every server, so generating a
 * workload allocates a handful of arrays rather than objects per record. Not thread-safe.
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
        int length = keys.write(serial, keyBytes, keyBytesUsed);
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

    /** Sorts by partition, then by key in Text's order (unsigned bytes of the characters). */
    void sort() {
        // Hadoop's QuickSort rejects an empty range (it takes a logarithm of the size).
        if (size > 1) {
            new QuickSort().sort(this, 0, size);
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
