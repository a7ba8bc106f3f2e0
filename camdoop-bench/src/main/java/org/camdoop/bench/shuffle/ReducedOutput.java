package org.camdoop.bench.shuffle;

import java.util.Arrays;
import org.apache.hadoop.io.WritableUtils;
import org.camdoop.workload.OutputDigest;

/**
 * The reduce output of one partition, held until it can be digested in partition order: records of serialized key
 * and 4-byte sum, packed as {@code i32 keyLength, key, i32 sum}. Owned by one thread at a time: the partition's reducer
 * thread while it runs, then the thread that joined it.
 */
final class ReducedOutput {

    private byte[] bytes = new byte[1 << 16];
    private int used;
    private long records;
    private long recordBytes;

    void add(byte[] key, int offset, int length, int sum) {
        ensure(length + 8);
        writeInt(length);
        System.arraycopy(key, offset, bytes, used, length);
        used += length;
        writeInt(sum);
        records++;
        recordBytes += WritableUtils.getVIntSize(length) + WritableUtils.getVIntSize(Integer.BYTES) + length + Integer.BYTES;
    }

    /** Output records. */
    long records() {
        return records;
    }

    /** The output in IFile record layout, the unit of the workload's intermediate and output bytes. */
    long recordBytes() {
        return recordBytes;
    }

    /** Feeds every record, in order, to {@code digest} as partition {@code partition}. */
    void digestInto(OutputDigest digest, int partition) {
        int at = 0;
        while (at < used) {
            int length = readInt(at);
            at += 4;
            digest.update(partition, bytes, at, length, bytes, at + length, Integer.BYTES);
            at += length + Integer.BYTES;
        }
    }

    private void ensure(int more) {
        if (used + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, used + more));
        }
    }

    private void writeInt(int v) {
        bytes[used++] = (byte) (v >>> 24);
        bytes[used++] = (byte) (v >>> 16);
        bytes[used++] = (byte) (v >>> 8);
        bytes[used++] = (byte) v;
    }

    private int readInt(int at) {
        return ((bytes[at] & 0xFF) << 24) | ((bytes[at + 1] & 0xFF) << 16) | ((bytes[at + 2] & 0xFF) << 8)
                | (bytes[at + 3] & 0xFF);
    }
}
