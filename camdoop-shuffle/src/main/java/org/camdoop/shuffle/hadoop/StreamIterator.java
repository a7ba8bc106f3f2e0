package org.camdoop.shuffle.hadoop;

import java.io.IOException;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.util.Progress;
import org.camdoop.shuffle.protocol.StreamItem;
import org.camdoop.shuffle.protocol.StreamSource;
import org.camdoop.shuffle.records.RawBytes;
import org.camdoop.shuffle.records.RecordCursor;

/**
 * The reducer's input: the root's merged stream as it arrives, one record at a time, keys and values as
 * {@link DataInputBuffer}s over the chunk bytes (no copy, nothing on disk). {@link #next()} blocks for the next chunk.
 * Equal keys may come in several runs (the root merges its tree streams without combining): the reducer groups by
 * comparator, so that is fine. A failure here comes after records reached the reducer, so it fails the attempt. A
 * pause for lost map outputs is resumed with their maps' new attempts where it may be ({@link LostMapRecovery}).
 * Not thread-safe: the reduce task's thread.
 */
final class StreamIterator implements RawKeyValueIterator {
    /** Chunks after which progress is halfway; progress approaches 1 as chunks arrive and is complete at the end. */
    private static final double HALF_PROGRESS_CHUNKS = 64;

    private final StreamSource source;
    private final CamdoopCounters counters;
    private final String shuffle;
    private final LostMapRecovery lost;
    private final Progress progress = new Progress();
    private final DataInputBuffer key = new DataInputBuffer();
    private final DataInputBuffer value = new DataInputBuffer();
    private final RawBytes rawKey = new RawBytes();
    private final RawBytes rawValue = new RawBytes();
    private final RecordCursor cursor;
    private StreamItem pending;
    private boolean ended;
    private long chunks;
    private long records;

    /**
     * @param first the item {@code run()} already read to decide between Camdoop and the stock shuffle
     * @param lost  reports lost map outputs, and names their new attempts to a stream that paused for them
     */
    StreamIterator(StreamSource source, StreamItem first, CamdoopCounters counters, String shuffle,
            LostMapRecovery lost) {
        this.lost = lost;
        this.source = source;
        this.pending = first;
        this.counters = counters;
        this.shuffle = shuffle;
        this.cursor = new RecordCursor(shuffle);
    }

    @Override
    public boolean next() throws IOException {
        while (!cursor.next(rawKey, rawValue)) {
            if (ended) {
                return false;
            }
            accept(take());
        }
        key.reset(rawKey.array(), rawKey.offset(), rawKey.length());
        value.reset(rawValue.array(), rawValue.offset(), rawValue.length());
        records++;
        return true;
    }

    private StreamItem take() throws IOException {
        StreamItem n = pending;
        pending = null;
        if (n != null) {
            return n;
        }
        try {
            return source.next();
        } catch (IOException e) {
            throw failed(e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failed("interrupted", e);
        }
    }

    private void accept(StreamItem n) throws IOException {
        if (n instanceof StreamItem.Chunk c) {
            cursor.reset(c.bytes(), 0, c.length());
            chunks++;
            counters.chunk(c.length());
            progress.set((float) (chunks / (chunks + HALF_PROGRESS_CHUNKS)));
        } else if (n instanceof StreamItem.End e) {
            ended = true;
            counters.records(records);
            counters.end(e.end());
            progress.complete();
        } else if (n instanceof StreamItem.Failed f) {
            lost.failed(f.reason());
            throw failed(f.reason(), null);
        } else if (n instanceof StreamItem.Paused p) {
            try {
                java.util.SortedMap<String, String> replacements = lost.replacements(p, records);
                source.resume(p, replacements);
                counters.replaced(replacements.size());
            } catch (IOException e) {
                throw failed(e.getMessage(), e);
            }
        } else {
            throw new IllegalStateException("unexpected stream item " + n);
        }
    }

    private IOException failed(String reason, Exception cause) {
        return new IOException(shuffle + " failed after " + records + " records reached the reducer, so this attempt"
                + " fails (its retry may use the stock shuffle): " + reason, cause);
    }

    @Override
    public DataInputBuffer getKey() {
        return key;
    }

    @Override
    public DataInputBuffer getValue() {
        return value;
    }

    @Override
    public Progress getProgress() {
        return progress;
    }

    @Override
    public void close() throws IOException {
        source.close();
    }
}
