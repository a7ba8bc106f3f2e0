package org.camdoop.shuffle.aggregation;

import org.camdoop.shuffle.records.RawBytes;

/**
 * One key as the merge and the grouping compare it, read once per record and reused from record to record: the raw
 * key, and for byte-ordered keys ({@link KeyOrder}) its body's first sixteen bytes as two big-endian words, zero-padded,
 * and its length. Two such keys compare with two word comparisons in most cases; the bytes beyond the sixteenth are
 * read only when the words are equal and both bodies are longer, and the job's comparator only for a key with no body
 * or a comparator that is not byte order. Exact for the reason {@link KeyOrder} gives, applied word after word.
 *
 * <p>Single-threaded, owned by the run that sets it.
 */
final class NormalizedKey {
    private static final int WORDS_BYTES = 2 * Long.BYTES;

    private byte[] array;
    private int offset;
    private int length;
    /** Where the body starts in {@link #array}, or -1 when the comparator must decide. */
    private int bodyStart = -1;
    private int bodyLength;
    private long first;
    private long second;

    /** Reads the key {@code array[offset, offset + length)} under {@code order}. */
    void set(KeyOrder order, byte[] keyArray, int keyOffset, int keyLength) {
        this.array = keyArray;
        this.offset = keyOffset;
        this.length = keyLength;
        int start = order.byteOrdered() ? order.bodyStart(keyArray, keyOffset, keyLength) : -1;
        this.bodyStart = start;
        if (start >= 0) {
            int body = keyOffset + keyLength - start;
            this.bodyLength = body;
            this.first = KeyOrder.word(keyArray, start, body);
            this.second = KeyOrder.word(keyArray, start + Long.BYTES, body - Long.BYTES);
        }
    }

    void set(KeyOrder order, RawBytes key) {
        set(order, key.array(), key.offset(), key.length());
    }

    /** Makes this key a copy of {@code other}, read under an order of the same {@link KeyOrder#sameNormalForm form}. */
    void copyFrom(NormalizedKey other) {
        this.array = other.array;
        this.offset = other.offset;
        this.length = other.length;
        this.bodyStart = other.bodyStart;
        this.bodyLength = other.bodyLength;
        this.first = other.first;
        this.second = other.second;
    }

    /** Makes this key refer to {@code copy[0, length)}, which holds a copy of its bytes (the words stay valid). */
    void movedTo(byte[] copy) {
        if (bodyStart >= 0) {
            bodyStart -= offset;
        }
        array = copy;
        offset = 0;
    }

    /** This key against {@code other}, in sign, as {@code comparator} (the one the order was made for) would say. */
    int compareTo(NormalizedKey other, KeyOrder order) {
        if (bodyStart < 0 || other.bodyStart < 0) {
            return order.comparator().compare(array, offset, length, other.array, other.offset, other.length);
        }
        int c = Long.compareUnsigned(first, other.first);
        if (c != 0) {
            return c;
        }
        if (bodyLength <= Long.BYTES || other.bodyLength <= Long.BYTES) {
            return Integer.compare(bodyLength, other.bodyLength);
        }
        c = Long.compareUnsigned(second, other.second);
        if (c != 0) {
            return c;
        }
        if (bodyLength <= WORDS_BYTES || other.bodyLength <= WORDS_BYTES) {
            return Integer.compare(bodyLength, other.bodyLength);
        }
        return KeyOrder.compareBytes(array, bodyStart + WORDS_BYTES, bodyLength - WORDS_BYTES,
                other.array, other.bodyStart + WORDS_BYTES, other.bodyLength - WORDS_BYTES);
    }

    /**
     * The key's first eight body bytes as an unsigned big-endian word (zero-padded): where it lies in the key space, in
     * order with {@link #compareTo} wherever the words differ; 0 for a key the comparator must decide.
     */
    long firstWord() {
        return bodyStart >= 0 ? first : 0;
    }
}
