package org.camdoop.shuffle.aggregation;

import java.io.IOException;
import org.camdoop.shuffle.records.RawBytes;
import org.camdoop.shuffle.records.RecordCursor;

/** A {@link RecordCursor} over the records of several {@link ByteRanges} of one array, in order. Single-threaded. */
final class RangesCursor {
    private final RecordCursor cursor;
    private byte[] data = new byte[0];
    private ByteRanges ranges = new ByteRanges();
    /** The next range to open once the current one is exhausted. */
    private int nextRange;

    RangesCursor(String label) {
        this.cursor = new RecordCursor(label);
    }

    /** Starts at the first record of {@code ranges} in {@code data}; both must stay unchanged while in use. */
    void reset(byte[] data, ByteRanges ranges) {
        this.data = data;
        this.ranges = ranges;
        this.nextRange = 0;
        cursor.reset(data, 0, 0);
    }

    /** Positions {@code key} and {@code value} on the next record; false after the last range. */
    boolean next(RawBytes key, RawBytes value) throws IOException {
        while (!cursor.next(key, value)) {
            if (nextRange == ranges.size()) {
                return false;
            }
            int start = ranges.start(nextRange);
            cursor.reset(data, start, ranges.end(nextRange) - start);
            nextRange++;
        }
        return true;
    }
}
