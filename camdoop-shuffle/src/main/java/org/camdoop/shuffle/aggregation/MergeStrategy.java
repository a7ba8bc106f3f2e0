package org.camdoop.shuffle.aggregation;

/** How {@link KWayMerger} finds the smallest current key among its inputs. Both give the same output. */
public enum MergeStrategy {
    /** Binary min-heap: simple, about 2 log2(k) comparisons per record. */
    BINARY_HEAP,
    /** Tournament tree of losers: log2(k) comparisons per record. */
    LOSER_TREE;

    MinSelector newSelector(InputOrder order) {
        switch (this) {
            case BINARY_HEAP:
                return new BinaryHeapSelector(order);
            case LOSER_TREE:
                return new LoserTreeSelector(order);
            default:
                throw new AssertionError(this);
        }
    }
}
