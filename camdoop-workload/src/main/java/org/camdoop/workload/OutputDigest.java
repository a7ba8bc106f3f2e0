package org.camdoop.workload;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * SHA-256 over a job's reduce input after full aggregation, fed record by record, so a benchmark can check a
 * reducer's stream without holding it. The digested bytes are, for each partition {@code p = 0 .. R-1} in order:
 * <pre>
 *   for each record of p, in the job's key order:
 *     vint   key length     (Hadoop WritableUtils.writeVInt)
 *     vint   value length
 *     bytes  key            (the serialized key; for Text: vint character-byte count, then UTF-8 bytes)
 *     bytes  value          (the serialized value; for IntWritable: 4-byte big-endian int)
 *   0xFF 0xFF               (end of partition: IFile's EOF marker, vint -1 twice)
 * </pre>
 * That is each partition's IFile record stream, uncompressed and without checksum, so a service that already holds
 * records in IFile layout digests them as they are. The end-of-partition marker keeps partition boundaries in the
 * digest: moving a record from one partition to the next changes it, and every empty partition still contributes
 * its two bytes.
 *
 * <p>Partitions must be fed in ascending order; partitions never mentioned count as empty. Not thread-safe.
 */
public final class OutputDigest {
    private static final byte EOF_MARKER = (byte) 0xFF;

    private final int partitions;
    private final MessageDigest sha256;
    private final byte[] vintBuffer = new byte[10];
    /** The partition being fed; every partition below it has been closed with its marker. */
    private int current;
    private boolean finished;

    /** A digest over {@code partitions} partitions (R >= 1). */
    public OutputDigest(int partitions) {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be >= 1: " + partitions);
        }
        this.partitions = partitions;
        try {
            this.sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform must provide SHA-256", e);
        }
    }

    /** Adds one record of {@code partition} (serialized key and value, as whole arrays). */
    public void update(int partition, byte[] key, byte[] value) {
        update(partition, key, 0, key.length, value, 0, value.length);
    }

    /**
     * Adds one record of {@code partition}: serialized key bytes {@code key[keyOffset, keyOffset + keyLength)} and
     * value bytes likewise.
     *
     * @throws IllegalArgumentException if {@code partition} is outside [0, R)
     * @throws IllegalStateException if {@code partition} is below one already fed, or after {@link #finish()}
     */
    public void update(int partition, byte[] key, int keyOffset, int keyLength, byte[] value, int valueOffset,
            int valueLength) {
        moveTo(partition);
        writeVInt(keyLength);
        writeVInt(valueLength);
        sha256.update(key, keyOffset, keyLength);
        sha256.update(value, valueOffset, valueLength);
    }

    /** Closes every partition not yet closed and returns the digest as 64 lowercase hex digits; call once. */
    public String finish() {
        checkNotFinished();
        while (current < partitions) {
            closeCurrent();
        }
        finished = true;
        return HexFormat.of().formatHex(sha256.digest());
    }

    private void moveTo(int partition) {
        checkNotFinished();
        if (partition < 0 || partition >= partitions) {
            throw new IllegalArgumentException("partition " + partition + " outside [0, " + partitions + ")");
        }
        if (partition < current) {
            throw new IllegalStateException("partition " + partition + " arrived after partition " + current
                    + ": the digest needs partitions in ascending order");
        }
        while (current < partition) {
            closeCurrent();
        }
    }

    private void closeCurrent() {
        sha256.update(EOF_MARKER);
        sha256.update(EOF_MARKER);
        current++;
    }

    private void checkNotFinished() {
        if (finished) {
            throw new IllegalStateException("digest already finished");
        }
    }

    /** Hadoop's WritableUtils.writeVLong encoding, written here to digest without a stream in between. */
    private void writeVInt(int i) {
        if (i >= -112 && i <= 127) {
            sha256.update((byte) i);
            return;
        }
        long v = i;
        int len = -112;
        if (v < 0) {
            v ^= -1L;
            len = -120;
        }
        long tmp = v;
        while (tmp != 0) {
            tmp = tmp >> 8;
            len--;
        }
        int n = 0;
        vintBuffer[n++] = (byte) len;
        len = (len < -120) ? -(len + 120) : -(len + 112);
        for (int idx = len; idx != 0; idx--) {
            int shiftbits = (idx - 1) * 8;
            vintBuffer[n++] = (byte) ((v & (0xFFL << shiftbits)) >> shiftbits);
        }
        sha256.update(vintBuffer, 0, n);
    }
}
