package org.camdoop.shuffle.aggregation;

import java.util.List;
import org.apache.hadoop.io.RawComparator;
import org.camdoop.shuffle.records.RawBytes;

/**
 * Orders merge inputs by their current keys under the job's comparator, ties broken by input index.
 *
 * <p>Each input's current key is read once, when the merge {@link #refresh refreshes} it after the input advanced, into
 * a {@link NormalizedKey}; a comparison then touches no input object (the inputs are of several classes, so every call
 * on them is a virtual one) and, for byte-ordered keys ({@link KeyOrder}), is usually one or two word comparisons.
 * Single-threaded, owned by its {@link KWayMerger}.
 */
final class InputOrder {
    private final SortedRun[] inputs;
    private final KeyOrder order;
    private final NormalizedKey[] heads;
    private final RawBytes[] keys;
    /** Inputs whose key view is one object for their whole life ({@link SortedRun#stableViews}), taken once. */
    private final boolean[] stable;

    InputOrder(List<? extends SortedRun> inputs, RawComparator<Object> comparator) {
        this.inputs = inputs.toArray(new SortedRun[0]);
        this.order = KeyOrder.of(comparator);
        this.heads = new NormalizedKey[this.inputs.length];
        this.keys = new RawBytes[this.inputs.length];
        this.stable = new boolean[this.inputs.length];
        for (int i = 0; i < heads.length; i++) {
            heads[i] = new NormalizedKey();
            stable[i] = this.inputs[i].stableViews();
            if (stable[i]) {
                keys[i] = this.inputs[i].key();
            }
        }
    }

    int size() {
        return inputs.length;
    }

    /** Reads input {@code i}'s current key; call after every advance of {@code i} that returned a record. */
    void refresh(int i) {
        RawBytes key = stable[i] ? keys[i] : (keys[i] = inputs[i].key());
        heads[i].set(order, key);
    }

    /** Input {@code i}'s current key as of its last {@link #refresh}. */
    RawBytes key(int i) {
        return keys[i];
    }

    /** Input {@code i}'s current key in the form the order compares, as of its last {@link #refresh}. */
    NormalizedKey head(int i) {
        return heads[i];
    }

    KeyOrder order() {
        return order;
    }

    /** True if input {@code a}'s current record sorts strictly before input {@code b}'s. */
    boolean less(int a, int b) {
        int c = heads[a].compareTo(heads[b], order);
        return c < 0 || (c == 0 && a < b);
    }
}
