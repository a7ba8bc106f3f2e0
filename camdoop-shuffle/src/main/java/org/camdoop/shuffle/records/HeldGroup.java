package org.camdoop.shuffle.records;

import java.util.Arrays;
import org.apache.hadoop.io.RawComparator;

/**
 * The records of one key group held back until a record of a greater key (or the end) shows that the group is
 * complete: a copy of them and of their key. What {@code GenerationOutput} and {@code WholeGroupInput} hold of each
 * chunk's last group, so that whatever they pass on ends on a group boundary.
 *
 * <p>The bytes {@link #bytes()} returns may be handed on without a copy: once a group is handed on, the holder
 * {@link #clear()}s it or {@link #hold}s another, and both leave that array alone ({@link #hold} copies into a new one;
 * {@link #append} writes only into the array of the group still held). Single-threaded.
 */
public final class HeldGroup {

    private static final byte[] NONE = new byte[0];

    private byte[] bytes;
    private int length;
    private byte[] key;

    /** Whether no group is held. */
    public boolean isEmpty() {
        return key == null;
    }

    /** Holds a copy of {@code a[from, to)}, records of {@code key} (a copy of the key), in place of any group held. */
    public void hold(byte[] a, int from, int to, byte[] key) {
        this.bytes = Arrays.copyOfRange(a, from, to);
        this.length = to - from;
        this.key = key;
    }

    /** Adds {@code a[from, to)}, more records of the held key. */
    public void append(byte[] a, int from, int to) {
        int add = to - from;
        if (length + add > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(length + add, 2 * bytes.length));
        }
        System.arraycopy(a, from, bytes, length, add);
        length += add;
    }

    /** Whether record {@code record} of {@code records} has the held key, in {@code order} (false if none is held). */
    public boolean continues(ChunkIndex records, RawComparator<Object> order, int record) {
        return key != null && records.compare(order, record, key) == 0;
    }

    /** The held records, in {@code bytes()[0, length())}; an empty array if none. */
    public byte[] bytes() {
        return key == null ? NONE : bytes;
    }

    public int length() {
        return key == null ? 0 : length;
    }

    /** The held key; null if none. */
    public byte[] key() {
        return key;
    }

    /** Holds nothing. */
    public void clear() {
        bytes = null;
        length = 0;
        key = null;
    }
}
