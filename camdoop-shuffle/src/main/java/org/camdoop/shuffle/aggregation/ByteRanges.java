package org.camdoop.shuffle.aggregation;

import java.util.Arrays;

/**
 * Increasing, non-overlapping byte ranges {@code [start, end)} of one {@link RecordBatch}, each covering whole records;
 * a range that starts where the previous one ends is merged into it, so a stretch of consecutive groups costs one
 * entry. The array is reused across batches. Single-threaded (owned by the {@link CombiningRun} that fills it).
 */
final class ByteRanges {
    /** start0, end0, start1, end1, ... */
    private int[] bounds = new int[16];
    private int count;

    /** Adds {@code [start, end)}; {@code start} must not be below the end of the last range. */
    void add(int start, int end) {
        if (count > 0 && bounds[2 * count - 1] == start) {
            bounds[2 * count - 1] = end;
            return;
        }
        if (2 * count == bounds.length) {
            bounds = Arrays.copyOf(bounds, 2 * bounds.length);
        }
        bounds[2 * count] = start;
        bounds[2 * count + 1] = end;
        count++;
    }

    void clear() {
        count = 0;
    }

    boolean isEmpty() {
        return count == 0;
    }

    int size() {
        return count;
    }

    int start(int i) {
        return bounds[2 * i];
    }

    int end(int i) {
        return bounds[2 * i + 1];
    }
}
