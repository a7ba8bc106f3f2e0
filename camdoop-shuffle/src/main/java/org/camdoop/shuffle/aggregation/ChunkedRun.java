package org.camdoop.shuffle.aggregation;

import java.io.IOException;
import org.camdoop.shuffle.records.RawBytes;
import org.camdoop.shuffle.records.RecordCursor;

/**
 * A run that parses whole IFile-layout records out of byte chunks, one chunk at a time: a child's stream
 * ({@link ChunkQueueRun}), a local stripe ({@link StripeQueueRun}), bytes in memory ({@link ByteArrayRun}).
 *
 * <p>Why a class and not only the interface: the per-record step, {@link #advance()}, is final and small (parse the
 * next record of the current chunk), and only when the chunk is used up does the subclass's {@link #afterChunk()} run,
 * once per chunk. A merge holds its inputs of this class by it ({@link KWayMerger}), so its per-record call binds
 * statically and the JIT inlines it into the merge's loop; through {@link SortedRun} the same call went through an
 * interface stub on every record, because a merge's inputs are of several classes.
 *
 * <p>Single-threaded, like every run. {@link #key()} and {@link #value()} are stable views, updated in place.
 */
public abstract sealed class ChunkedRun implements SortedRun permits ByteArrayRun, ChunkQueueRun, StripeQueueRun {
    private static final byte[] NO_BYTES = new byte[0];

    /** Positioned in the current chunk; subclasses load each next chunk into it. */
    protected final RecordCursor cursor;
    private final RawBytes key = new RawBytes();
    private final RawBytes value = new RawBytes();

    /** A run whose errors name {@code label}; only the three permitted runs extend it. */
    ChunkedRun(String label) {
        cursor = new RecordCursor(label);
    }

    @Override
    public final Advance advance() throws IOException {
        return cursor.next(key, value) ? Advance.RECORD : afterChunk();
    }

    /**
     * The current chunk is used up (or none was loaded yet): load the next one into {@link #cursor} and return its
     * first record, or say that none has arrived yet or that the run ended. A subclass that produces a record some
     * other way positions {@link #key()} and {@link #value()} itself.
     */
    protected abstract Advance afterChunk() throws IOException;

    /** Reads the current chunk's next record into the views; false when the chunk is used up. */
    protected final boolean nextInChunk() throws IOException {
        return cursor.next(key, value);
    }

    /** Drops the rest of the current chunk, so the next {@link #advance()} goes to {@link #afterChunk()}. */
    protected final void dropChunk() {
        cursor.reset(NO_BYTES, 0, 0);
    }

    @Override
    public final RawBytes key() {
        return key;
    }

    @Override
    public final RawBytes value() {
        return value;
    }

    @Override
    public final boolean stableViews() {
        return true;
    }
}
