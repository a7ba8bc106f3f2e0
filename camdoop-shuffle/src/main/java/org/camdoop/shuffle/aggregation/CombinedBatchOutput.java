package org.camdoop.shuffle.aggregation;

import java.io.IOException;
import org.apache.hadoop.io.RawComparator;
import org.camdoop.shuffle.records.RawBytes;
import org.camdoop.shuffle.records.RecordCursor;

/**
 * The records one combine batch yields, in sort order: the combiner's output for the batch's multi-record groups,
 * interleaved with the batch's single-record groups, which skip the combiner and pass through as they are (see
 * {@link CombiningRun}). Both come sorted, so this is a two-way merge; it compares keys only while both sides still have
 * records, so a batch of only singletons (all keys unique) or only multi-record groups costs no comparison at all.
 * Records are views of the two buffers, valid until the next {@link #next()}; nothing is copied.
 *
 * <p>Single-threaded (owned by its {@link CombiningRun}).
 */
final class CombinedBatchOutput {
    private enum Side { NONE, COMBINED, PASSED }

    private final RawComparator<Object> order;
    private final RecordCursor combined = new RecordCursor("combiner output");
    private final RangesCursor passed = new RangesCursor("single-record groups");
    private final RawBytes combinedKey = new RawBytes();
    private final RawBytes combinedValue = new RawBytes();
    private final RawBytes passedKey = new RawBytes();
    private final RawBytes passedValue = new RawBytes();
    private boolean combinedHas;
    private boolean passedHas;
    /** The side {@link #next()} returned last; advanced lazily so its views stay valid until the next call. */
    private Side last = Side.NONE;

    /** Merges by {@code order}, the job's sort comparator. */
    CombinedBatchOutput(RawComparator<Object> order) {
        this.order = order;
    }

    /**
     * Starts a batch: the combiner wrote {@code combinedData[0, combinedLength)}, the single-record groups are
     * {@code singletons} of {@code batchData}. The arrays and ranges must stay unchanged until {@link #next()} ends.
     */
    void reset(byte[] combinedData, int combinedLength, byte[] batchData, ByteRanges singletons) throws IOException {
        combined.reset(combinedData, 0, combinedLength);
        passed.reset(batchData, singletons);
        combinedHas = combined.next(combinedKey, combinedValue);
        passedHas = passed.next(passedKey, passedValue);
        last = Side.NONE;
    }

    /** Moves to the next record ({@link #key()}, {@link #value()}); false when the batch is used up. */
    boolean next() throws IOException {
        if (last == Side.COMBINED) {
            combinedHas = combined.next(combinedKey, combinedValue);
        } else if (last == Side.PASSED) {
            passedHas = passed.next(passedKey, passedValue);
        }
        if (passedHas && (!combinedHas || order.compare(passedKey.array(), passedKey.offset(), passedKey.length(),
                combinedKey.array(), combinedKey.offset(), combinedKey.length()) < 0)) {
            last = Side.PASSED;
        } else if (combinedHas) {
            last = Side.COMBINED;
        } else {
            last = Side.NONE;
            return false;
        }
        return true;
    }

    RawBytes key() {
        return last == Side.PASSED ? passedKey : combinedKey;
    }

    RawBytes value() {
        return last == Side.PASSED ? passedValue : combinedValue;
    }
}
