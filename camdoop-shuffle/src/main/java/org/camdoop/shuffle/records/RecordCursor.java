package org.camdoop.shuffle.records;

import java.io.IOException;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.io.WritableUtils;

/**
 * Parses whole IFile-layout records out of one byte range, validating every length against the range so a corrupt
 * chunk fails with a message naming the offset instead of reading neighbouring memory or allocating wildly.
 * An EOF marker (-1, -1) ends the range early. Single-threaded.
 */
public final class RecordCursor {
    private final String label;
    private byte[] data = new byte[0];
    private int position;
    private int limit;

    public RecordCursor(String label) {
        this.label = label;
    }

    /** Starts parsing {@code data[offset, offset + length)}. */
    public void reset(byte[] data, int offset, int length) {
        if (offset < 0 || length < 0 || offset + length > data.length) {
            throw new IllegalArgumentException(label + ": range [" + offset + ", +" + length + ") outside array of "
                    + data.length);
        }
        this.data = data;
        this.position = offset;
        this.limit = offset + length;
    }

    /** Where the next record starts (the end of the range once {@link #next} returned false). */
    public int position() {
        return position;
    }

    /** Positions {@code key} and {@code value} on the next record; false when the range (or an EOF marker) is reached. */
    public boolean next(RawBytes key, RawBytes value) throws IOException {
        if (position >= limit) {
            return false;
        }
        int start = position;
        int keyLength = readVInt(start);
        int valueLength = readVInt(start);
        if (keyLength == RecordLayout.EOF_MARKER && valueLength == RecordLayout.EOF_MARKER) {
            position = limit;
            return false;
        }
        if (keyLength < 0 || valueLength < 0 || (long) keyLength + valueLength > limit - position) {
            throw new IOException(label + ": corrupt record at offset " + start + ": key length " + keyLength
                    + ", value length " + valueLength + ", " + (limit - position) + " bytes left in chunk");
        }
        key.set(data, position, keyLength);
        value.set(data, position + keyLength, valueLength);
        position += keyLength + valueLength;
        return true;
    }

    private int readVInt(int recordStart) throws IOException {
        if (position >= limit) { // the key's length ended the range: its value length is missing
            throw new IOException(label + ": truncated record header at offset " + recordStart);
        }
        byte first = data[position];
        if (first >= -112) { // a one-byte vint (WritableUtils' encoding of -112..127): every short record length
            position++;
            return first;
        }
        int size = WritableUtils.decodeVIntSize(first);
        if (position + size > limit) {
            throw new IOException(label + ": truncated record header at offset " + recordStart);
        }
        int v = WritableComparator.readVInt(data, position);
        position += size;
        return v;
    }
}
