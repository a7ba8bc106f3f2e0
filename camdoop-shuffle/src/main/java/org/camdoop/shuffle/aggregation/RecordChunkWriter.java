package org.camdoop.shuffle.aggregation;

import java.io.IOException;
import org.camdoop.shuffle.records.RawBytes;
import org.camdoop.shuffle.records.RecordLayout;

/**
 * Packs an output record stream into wire chunks of whole IFile-layout records, at most {@code chunkBytes} each.
 * A record never spans two chunks, so a receiver can parse each chunk on its own ({@link ChunkQueueRun}). A record
 * larger than {@code chunkBytes} (one huge value) gets a chunk of its own sized exactly to it: chunks are bounded by
 * {@code max(chunkBytes, largest record)}.
 *
 * <p>Single-threaded. Counts records and bytes out.
 */
public final class RecordChunkWriter {
    private final int chunkBytes;
    private final ChunkSink sink;
    private final AggregationCounters counters;
    private byte[] chunk;
    private int used;

    /** A writer handing chunks of at most {@code chunkBytes} (oversized records excepted) to {@code sink}. */
    public RecordChunkWriter(int chunkBytes, ChunkSink sink, AggregationCounters counters) {
        if (chunkBytes <= 0) {
            throw new IllegalArgumentException("chunk size must be positive: " + chunkBytes);
        }
        this.chunkBytes = chunkBytes;
        this.sink = sink;
        this.counters = counters;
    }

    /** Appends one record, handing over the current chunk first if the record does not fit in it. */
    public void append(RawBytes key, RawBytes value) throws IOException {
        int size = RecordLayout.recordSize(key.length(), value.length());
        if (chunk != null && used + size > chunk.length) {
            flush();
        }
        if (chunk == null) {
            chunk = new byte[Math.max(chunkBytes, size)];
        }
        used = RecordLayout.writeRecord(chunk, used, key, value);
        counters.recordOut(key.length(), value.length());
        if (used == chunk.length) {
            flush();
        }
    }

    /** Hands over the partly filled chunk, if any (e.g. before waiting on an input, so the parent is not starved). */
    public void flush() throws IOException {
        if (chunk != null && used > 0) {
            byte[] full = chunk;
            int length = used;
            chunk = null;
            used = 0;
            sink.accept(full, length);
        }
    }

    /** Bytes waiting in the current chunk. */
    public int pendingBytes() {
        return used;
    }
}
