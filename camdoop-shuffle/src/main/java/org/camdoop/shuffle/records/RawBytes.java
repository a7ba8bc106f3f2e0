package org.camdoop.shuffle.records;

import java.util.Arrays;

/**
 * A mutable view of a byte range owned by someone else (a run's buffer). Runs reuse one instance per record so the hot
 * path allocates nothing; a view is valid only until its owner moves on, so callers copy what they keep.
 */
public final class RawBytes {
    private byte[] array = new byte[0];
    private int offset;
    private int length;

    /** Points this view at {@code array[offset, offset + length)}. */
    public void set(byte[] array, int offset, int length) {
        this.array = array;
        this.offset = offset;
        this.length = length;
    }

    public byte[] array() {
        return array;
    }

    public int offset() {
        return offset;
    }

    public int length() {
        return length;
    }

    /** A copy of the viewed bytes (tests and diagnostics; not for the hot path). */
    public byte[] copy() {
        return Arrays.copyOfRange(array, offset, offset + length);
    }
}
