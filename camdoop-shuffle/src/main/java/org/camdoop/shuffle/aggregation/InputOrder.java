package org.camdoop.shuffle.aggregation;

import java.util.List;
import org.apache.hadoop.io.RawComparator;
import org.camdoop.shuffle.records.RawBytes;

/**
 * Orders merge inputs by their current keys under the job's comparator, ties broken by input index.
 *
 * <p>Each input's current key is read once, when the merge {@link #refresh refreshes} it after the input advanced, into
 * flat arrays; a comparison then touches no input object (the inputs are of several classes, so every call on them is
 * a virtual one) and, for byte-ordered keys ({@link KeyOrder}), is usually one comparison of two prefixes computed at
 * that refresh. Single-threaded, owned by its {@link KWayMerger}.
 */
final class InputOrder {
    private final SortedRun[] inputs;
    private final RawComparator<Object> comparator;
    private final KeyOrder order;
    private final byte[][] arrays;
    private final int[] offsets;
    private final int[] lengths;
    /** The body's start and length per input, -1 when the comparator must decide (see {@link KeyOrder}). */
    private final int[] bodyStarts;
    private final int[] bodyLengths;
    private final long[] prefixes;

    InputOrder(List<? extends SortedRun> inputs, RawComparator<Object> comparator) {
        this.inputs = inputs.toArray(new SortedRun[0]);
        this.comparator = comparator;
        this.order = KeyOrder.of(comparator);
        int k = this.inputs.length;
        this.arrays = new byte[k][];
        this.offsets = new int[k];
        this.lengths = new int[k];
        this.bodyStarts = new int[k];
        this.bodyLengths = new int[k];
        this.prefixes = new long[k];
    }

    int size() {
        return inputs.length;
    }

    /** Reads input {@code i}'s current key; call after every advance of {@code i} that returned a record. */
    void refresh(int i) {
        RawBytes key = inputs[i].key();
        byte[] array = key.array();
        int offset = key.offset();
        int length = key.length();
        arrays[i] = array;
        offsets[i] = offset;
        lengths[i] = length;
        int start = order.byteOrdered() ? order.bodyStart(array, offset, length) : -1;
        bodyStarts[i] = start;
        if (start >= 0) {
            int bodyLength = offset + length - start;
            bodyLengths[i] = bodyLength;
            prefixes[i] = KeyOrder.prefix(array, start, bodyLength);
        }
    }

    /** True if input {@code a}'s current record sorts strictly before input {@code b}'s. */
    boolean less(int a, int b) {
        int c;
        if (bodyStarts[a] >= 0 && bodyStarts[b] >= 0) {
            c = KeyOrder.compareBodies(prefixes[a], arrays[a], bodyStarts[a], bodyLengths[a],
                    prefixes[b], arrays[b], bodyStarts[b], bodyLengths[b]);
        } else {
            c = comparator.compare(arrays[a], offsets[a], lengths[a], arrays[b], offsets[b], lengths[b]);
        }
        return c < 0 || (c == 0 && a < b);
    }
}
