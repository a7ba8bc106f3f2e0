package org.camdoop.shuffle.aggregation;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableUtils;

/**
 * The job's key order, with a fast path for the comparators Hadoop defines as plain byte order after a length header:
 * {@link Text.Comparator} (a vint length) and {@link BytesWritable.Comparator} (a 4-byte length), these exact classes.
 * Both compare the key <em>bodies</em> with {@code WritableComparator.compareBytes}: unsigned bytes, then the shorter
 * first. So, for them, a key's order is fixed by its body's first eight bytes read as one big-endian unsigned
 * {@link #word} (zero-padded), then by the rest of the body; {@link NormalizedKey} keeps two such words per record and
 * looks at the bytes only when both are equal and both bodies are longer than sixteen bytes.
 *
 * <p>Why that is exact: if the first words differ, the first differing byte is within the first eight of both bodies
 * (padding is 0, and a shorter body padded with zeros is then smaller, as compareBytes says of a proper prefix). If they
 * are equal and one body has at most eight bytes, that body is a prefix of the other (the other's bytes beyond it are
 * the zeros the padding matched), so the shorter is smaller and equal lengths mean equal keys. Otherwise the first
 * eight bytes are equal and the rest decides, as unsigned bytes then length: the same argument for the next word, then
 * {@link #compareBytes}.
 *
 * <p>A key too short to hold its own header gets no body ({@link #bodyStart} is -1) and goes to the job's comparator,
 * which fails or answers as it would have. Any other comparator class (a subclass, a user's) always goes to the job's
 * comparator. Immutable and thread-safe.
 */
final class KeyOrder {
    private static final VarHandle BIG_ENDIAN_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private enum Header { NONE, VINT, FOUR_BYTES }

    private final RawComparator<Object> comparator;
    private final Header header;

    private KeyOrder(RawComparator<Object> comparator, Header header) {
        this.comparator = comparator;
        this.header = header;
    }

    /** The order of {@code comparator}, with the fast path if it is one of the two known classes. */
    static KeyOrder of(RawComparator<Object> comparator) {
        Class<?> c = comparator.getClass();
        Header header = c == Text.Comparator.class ? Header.VINT
                : c == BytesWritable.Comparator.class ? Header.FOUR_BYTES : Header.NONE;
        return new KeyOrder(comparator, header);
    }

    /** Whether keys have bodies ordered as bytes ({@link #bodyStart} may still be -1 for a malformed key). */
    boolean byteOrdered() {
        return header != Header.NONE;
    }

    /**
     * Whether a key read under this order ({@link NormalizedKey#set}) holds exactly what reading it under
     * {@code other} would: the same header, hence the same body and words, or no body under either.
     */
    boolean sameNormalForm(KeyOrder other) {
        return header == other.header;
    }

    /** Where the body of the key {@code b[offset, offset + length)} starts, or -1 if it has none (class comment). */
    int bodyStart(byte[] b, int offset, int length) {
        int headerBytes;
        switch (header) {
            case VINT -> {
                if (length < 1) {
                    return -1;
                }
                headerBytes = WritableUtils.decodeVIntSize(b[offset]);
            }
            case FOUR_BYTES -> headerBytes = Integer.BYTES;
            default -> {
                return -1;
            }
        }
        return headerBytes <= length ? offset + headerBytes : -1;
    }

    /**
     * Bytes {@code [from, from + 8)} of a body with {@code available} bytes left from {@code from}, big-endian, the
     * missing ones zero. One load when the array has eight bytes there (records are followed by their value).
     */
    static long word(byte[] b, int from, int available) {
        if (available >= Long.BYTES) {
            return (long) BIG_ENDIAN_LONG.get(b, from);
        }
        if (available <= 0) {
            return 0;
        }
        if (from + Long.BYTES <= b.length) {
            return (long) BIG_ENDIAN_LONG.get(b, from) & (-1L << (8 * (Long.BYTES - available)));
        }
        long w = 0;
        for (int i = 0; i < available; i++) {
            w |= (b[from + i] & 0xFFL) << (8 * (Long.BYTES - 1 - i));
        }
        return w;
    }

    /**
     * {@code compareBytes} in sign: unsigned bytes, then the shorter first; eight bytes at a time. (Short keys are the
     * common case, where {@link Arrays#compareUnsigned}'s set-up costs more than the comparison.)
     */
    static int compareBytes(byte[] a, int aFrom, int aLength, byte[] b, int bFrom, int bLength) {
        int n = Math.min(aLength, bLength);
        int i = 0;
        for (; i + Long.BYTES <= n; i += Long.BYTES) {
            long x = (long) BIG_ENDIAN_LONG.get(a, aFrom + i);
            long y = (long) BIG_ENDIAN_LONG.get(b, bFrom + i);
            if (x != y) {
                return Long.compareUnsigned(x, y);
            }
        }
        for (; i < n; i++) {
            int c = (a[aFrom + i] & 0xFF) - (b[bFrom + i] & 0xFF);
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(aLength, bLength);
    }

    RawComparator<Object> comparator() {
        return comparator;
    }

    /** The job comparator's answer, in sign, for two whole keys. */
    int compare(byte[] a, int aOffset, int aLength, byte[] b, int bOffset, int bLength) {
        if (header != Header.NONE) {
            int aStart = bodyStart(a, aOffset, aLength);
            int bStart = bodyStart(b, bOffset, bLength);
            if (aStart >= 0 && bStart >= 0) {
                return compareBytes(a, aStart, aOffset + aLength - aStart, b, bStart, bOffset + bLength - bStart);
            }
        }
        return comparator.compare(a, aOffset, aLength, b, bOffset, bLength);
    }
}
