package org.camdoop.shuffle.aggregation;

import java.util.Arrays;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.util.Progress;
import org.camdoop.shuffle.records.RawBytes;
import org.camdoop.shuffle.records.RecordLayout;

/**
 * A growable buffer of IFile-layout records: the combiner's input batch and its serialized output. Appending copies the
 * record once; the array is reused across batches so steady state allocates nothing. Single-threaded.
 */
final class RecordBatch {
    private byte[] data = new byte[1024];
    private int length;
    private int records;

    int byteLength() {
        return length;
    }

    int records() {
        return records;
    }

    byte[] data() {
        return data;
    }

    void clear() {
        length = 0;
        records = 0;
    }

    /** Appends one record; returns the offset of its key bytes in {@link #data()} (valid until the array grows). */
    int append(RawBytes key, RawBytes value) {
        return append(key.array(), key.offset(), key.length(), value.array(), value.offset(), value.length());
    }

    /** Appends one record; returns the offset of its key bytes in {@link #data()}. */
    int append(byte[] key, int keyOffset, int keyLength, byte[] value, int valueOffset, int valueLength) {
        ensureRoom(RecordLayout.recordSize(keyLength, valueLength));
        int end = RecordLayout.writeRecord(data, length, key, keyOffset, keyLength, value, valueOffset, valueLength);
        int keyStart = end - valueLength - keyLength;
        length = end;
        records++;
        return keyStart;
    }

    /** Drops the first {@code bytes} bytes holding {@code count} records, moving the rest to the front. */
    void dropPrefix(int bytes, int count) {
        System.arraycopy(data, bytes, data, 0, length - bytes);
        length -= bytes;
        records -= count;
    }

    private void ensureRoom(int extra) {
        long needed = (long) length + extra;
        if (needed > data.length) {
            if (needed > Integer.MAX_VALUE - 16) {
                throw new IllegalStateException("record batch would exceed 2 GiB");
            }
            data = Arrays.copyOf(data, (int) Math.max(needed, Math.min(Integer.MAX_VALUE - 16L, 2L * data.length)));
        }
    }

    /**
     * Hadoop's iterator over the records in {@code ranges} of this batch, as the combiner runners expect their input.
     * Valid while neither the batch nor {@code ranges} change.
     */
    RawKeyValueIterator iterator(ByteRanges ranges) {
        return new BatchIterator(data, ranges);
    }

    private static final class BatchIterator implements RawKeyValueIterator {
        private final RangesCursor cursor = new RangesCursor("combiner batch");
        private final RawBytes key = new RawBytes();
        private final RawBytes value = new RawBytes();
        private final DataInputBuffer keyBuffer = new DataInputBuffer();
        private final DataInputBuffer valueBuffer = new DataInputBuffer();
        private final Progress progress = new Progress();

        BatchIterator(byte[] data, ByteRanges ranges) {
            cursor.reset(data, ranges);
        }

        @Override
        public DataInputBuffer getKey() {
            return keyBuffer;
        }

        @Override
        public DataInputBuffer getValue() {
            return valueBuffer;
        }

        @Override
        public boolean next() throws java.io.IOException {
            if (!cursor.next(key, value)) {
                return false;
            }
            keyBuffer.reset(key.array(), key.offset(), key.length());
            valueBuffer.reset(value.array(), value.offset(), value.length());
            return true;
        }

        @Override
        public void close() {}

        @Override
        public Progress getProgress() {
            return progress;
        }
    }
}
