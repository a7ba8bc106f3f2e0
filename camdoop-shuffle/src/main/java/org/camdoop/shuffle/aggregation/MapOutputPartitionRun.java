package org.camdoop.shuffle.aggregation;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.io.compress.CodecPool;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.Decompressor;
import org.apache.hadoop.mapred.IFileInputStream;
import org.apache.hadoop.mapred.IndexRecord;
import org.camdoop.shuffle.records.RawBytes;
import org.camdoop.shuffle.records.RecordLayout;

/**
 * Streams one partition segment of a Hadoop map output file ({@code file.out}) record by record, in memory bounded by
 * the read buffer plus the largest record: IFile checksum via Hadoop's {@link IFileInputStream}, then the job's map
 * output codec, then the IFile record layout. Decompressed data is read in blocks into one array and records are parsed
 * in place (the key and value views point into it), so no byte goes through a per-byte stream call.
 *
 * <p>Corruption: the IFile CRC covers the whole segment and can only be checked at its end, so records read before
 * that are unverified. The run therefore never reports {@link Advance#END} before the CRC has been verified, and any
 * malformed data met on the way (bad length, decompression error, premature end) is turned into a
 * {@link ChecksumException} if the CRC over the rest of the segment fails. A consumer that sees an exception must
 * discard the stream it was building (the vertex aborts the partition); lengths are checked against the segment's raw
 * length before any buffer is sized, so corruption cannot trigger a huge allocation.
 *
 * <p>Single-threaded.
 */
final class MapOutputPartitionRun implements SortedRun {
    private enum State { READING, ENDED, CLOSED }

    private static final int READ_BUFFER_BYTES = 64 * 1024;

    private final String label;
    private final long rawLength;
    private final IFileInputStream checksummed;
    private final Decompressor decompressor;
    private final InputStream in;
    private final RawBytes key = new RawBytes();
    private final RawBytes value = new RawBytes();
    /** Decompressed bytes read ahead: {@code block[position, limit)} is not parsed yet. */
    private byte[] block;
    private int position;
    private int limit;
    private long consumed;
    private State state = State.READING;

    MapOutputPartitionRun(JobAggregationSpec spec, MapOutputFiles files, int partition, IndexRecord segment)
            throws IOException {
        this.label = files.attemptId() + " (" + files.file() + ") partition " + partition;
        this.rawLength = segment.rawLength;
        // Never buffer more than the segment holds: a daemon may have thousands of small partitions open at once.
        this.block = new byte[(int) Math.max(512, Math.min(READ_BUFFER_BYTES, segment.rawLength))];
        FileChannel raw = files.openData();
        Decompressor pooled = null;
        try {
            if (segment.startOffset > raw.size() || segment.partLength > raw.size() - segment.startOffset) {
                throw new MapOutputRefusedException(files.attemptId(), "partition " + partition + " ends at " + (segment.startOffset + segment.partLength) + " but "
                        + files.file() + " has " + raw.size() + " bytes");
            }
            raw.position(segment.startOffset);
            checksummed = new IFileInputStream(Channels.newInputStream(raw), segment.partLength, spec.job());
            InputStream data = checksummed;
            if (spec.mapOutputCodec().isPresent()) {
                CompressionCodec codec = spec.mapOutputCodec().get();
                pooled = CodecPool.getDecompressor(codec);
                data = codec.createInputStream(checksummed, pooled);
            }
            this.decompressor = pooled;
            this.in = data;
        } catch (IOException | RuntimeException e) {
            if (pooled != null) {
                CodecPool.returnDecompressor(pooled);
            }
            raw.close();
            throw e;
        }
    }

    @Override
    public Advance advance() throws IOException {
        switch (state) {
            case READING:
                try {
                    return readRecord();
                } catch (ChecksumException e) {
                    throw e;
                } catch (IOException | RuntimeException e) {
                    throw checksumFailureOr(e);
                }
            case ENDED:
                return Advance.END;
            case CLOSED:
                throw new IOException(label + ": read after close");
            default:
                throw new AssertionError(state);
        }
    }

    private Advance readRecord() throws IOException {
        int keyLength = readVInt();
        int valueLength = readVInt();
        if (keyLength == RecordLayout.EOF_MARKER && valueLength == RecordLayout.EOF_MARKER) {
            checksummed.close(); // reads any unread tail and verifies the CRC: throws ChecksumException if corrupt
            state = State.ENDED;
            release();
            return Advance.END;
        }
        if (keyLength < 0 || valueLength < 0 || (long) keyLength + valueLength > rawLength - consumed) {
            throw new IOException(label + ": malformed record after " + consumed + " of " + rawLength
                    + " raw bytes: key length " + keyLength + ", value length " + valueLength);
        }
        require(keyLength + valueLength);
        consumed += keyLength + valueLength;
        key.set(block, position, keyLength);
        value.set(block, position + keyLength, valueLength);
        position += keyLength + valueLength;
        return Advance.RECORD;
    }

    private int readVInt() throws IOException {
        require(1);
        byte first = block[position];
        if (first >= -112) { // a one-byte vint (WritableUtils' encoding of -112..127): every short record length
            position++;
            consumed++;
            return first;
        }
        int size = WritableUtils.decodeVIntSize(first);
        require(size);
        int v = WritableComparator.readVInt(block, position);
        position += size;
        consumed += size;
        return v;
    }

    /**
     * Makes {@code block[position, position + bytes)} hold data, reading blocks from the stream; {@code bytes} was
     * checked against the segment's raw length by the caller (or is at most 9), so the array grows only as far as the
     * largest real record. The views of the previous record are no longer needed when this moves data.
     */
    private void require(int bytes) throws IOException {
        if (limit - position >= bytes) {
            return;
        }
        if (position > 0 || bytes > block.length) {
            // Compact (what is left is shorter than one record) so the next read is a whole block.
            byte[] target = bytes > block.length ? new byte[Math.max(bytes, 2 * block.length)] : block;
            System.arraycopy(block, position, target, 0, limit - position);
            block = target;
            limit -= position;
            position = 0;
        }
        while (limit - position < bytes) {
            int n = in.read(block, limit, block.length - limit);
            if (n < 0) {
                throw new EOFException(label + ": segment ends inside a record after " + consumed + " of " + rawLength
                        + " raw bytes");
            }
            limit += n;
        }
    }

    /** After malformed data: a ChecksumException if the CRC over the whole segment fails, else a format error. */
    private IOException checksumFailureOr(Exception failure) {
        try {
            checksummed.close();
        } catch (ChecksumException corrupt) {
            corrupt.addSuppressed(failure);
            closeQuietly();
            return corrupt;
        } catch (IOException | RuntimeException ignored) {
            failure.addSuppressed(ignored);
        }
        closeQuietly();
        return failure instanceof IOException ? (IOException) failure
                : new IOException(label + ": unreadable map output segment", failure);
    }

    private void closeQuietly() {
        try {
            close();
        } catch (IOException ignored) {
            // the original failure is what the caller needs to see
        }
    }

    private void release() throws IOException {
        try {
            in.close();
        } finally {
            if (decompressor != null) {
                CodecPool.returnDecompressor(decompressor);
            }
        }
    }

    @Override
    public RawBytes key() {
        return key;
    }

    @Override
    public RawBytes value() {
        return value;
    }

    @Override
    public boolean stableViews() {
        return true;
    }

    @Override
    public void close() throws IOException {
        State was = state;
        state = State.CLOSED;
        if (was == State.READING) {
            release();
        }
    }
}
