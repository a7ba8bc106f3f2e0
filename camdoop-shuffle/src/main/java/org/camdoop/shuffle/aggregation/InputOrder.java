package org.camdoop.shuffle.aggregation;

import java.util.List;
import org.apache.hadoop.io.RawComparator;
import org.camdoop.shuffle.records.RawBytes;

/** Orders merge inputs by their current keys under the job's comparator, ties broken by input index. */
final class InputOrder {
    private final List<? extends SortedRun> inputs;
    private final RawComparator<Object> comparator;

    InputOrder(List<? extends SortedRun> inputs, RawComparator<Object> comparator) {
        this.inputs = inputs;
        this.comparator = comparator;
    }

    int size() {
        return inputs.size();
    }

    /** True if input {@code a}'s current record sorts strictly before input {@code b}'s. */
    boolean less(int a, int b) {
        RawBytes ka = inputs.get(a).key();
        RawBytes kb = inputs.get(b).key();
        int c = comparator.compare(ka.array(), ka.offset(), ka.length(), kb.array(), kb.offset(), kb.length());
        return c < 0 || (c == 0 && a < b);
    }
}
