package org.camdoop.shuffle.records;

import org.apache.hadoop.io.WritableUtils;

/**
 * Hadoop's IFile record layout on byte arrays: {@code vint keyLength, vint valueLength, key bytes, value bytes}, with
 * Hadoop's variable-length int encoding ({@link WritableUtils#writeVInt}). The end-of-file marker is the pair -1, -1.
 * Wire chunks, combiner batches and map output files all use this one layout so a record is never re-encoded.
 */
public final class RecordLayout {
    /** The key and value length IFile writes at the end of a segment. */
    public static final int EOF_MARKER = -1;

    private RecordLayout() {}

    /** Bytes one record occupies in the layout. */
    public static int recordSize(int keyLength, int valueLength) {
        return WritableUtils.getVIntSize(keyLength) + WritableUtils.getVIntSize(valueLength) + keyLength + valueLength;
    }

    /**
     * Writes {@code value} at {@code dst[pos]} in Hadoop's vint encoding and returns the position after it. A byte-array
     * twin of {@link WritableUtils#writeVLong} (which needs a DataOutput), kept bit-identical by a test.
     */
    public static int writeVInt(byte[] dst, int pos, int value) {
        long i = value;
        if (i >= -112 && i <= 127) {
            dst[pos] = (byte) i;
            return pos + 1;
        }
        int len = -112;
        if (i < 0) {
            i ^= -1L;
            len = -120;
        }
        long tmp = i;
        while (tmp != 0) {
            tmp = tmp >> 8;
            len--;
        }
        dst[pos++] = (byte) len;
        len = (len < -120) ? -(len + 120) : -(len + 112);
        for (int idx = len; idx != 0; idx--) {
            int shift = (idx - 1) * 8;
            dst[pos++] = (byte) ((i >> shift) & 0xFF);
        }
        return pos;
    }

    /** Writes one whole record at {@code dst[pos]} and returns the position after it. */
    public static int writeRecord(byte[] dst, int pos, RawBytes key, RawBytes value) {
        return writeRecord(dst, pos, key.array(), key.offset(), key.length(), value.array(), value.offset(),
                value.length());
    }

    /** Writes one whole record at {@code dst[pos]} and returns the position after it. */
    public static int writeRecord(byte[] dst, int pos, byte[] key, int keyOffset, int keyLength, byte[] value,
            int valueOffset, int valueLength) {
        pos = writeVInt(dst, pos, keyLength);
        pos = writeVInt(dst, pos, valueLength);
        System.arraycopy(key, keyOffset, dst, pos, keyLength);
        pos += keyLength;
        System.arraycopy(value, valueOffset, dst, pos, valueLength);
        return pos + valueLength;
    }
}
