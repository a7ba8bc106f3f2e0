package org.camdoop.shuffle.aggregation;

import java.io.IOException;
import org.camdoop.shuffle.records.RawBytes;

/**
 * One stripe of a local map output partition, as its vertex reads it: the chunks a {@link StripeDemux} decoded for
 * this stripe, then, if the demux detached the stripe (its tree lagged too far behind the others), the stripe's own
 * cursor over the segment from where the demux left it. {@link Advance#NO_DATA_YET} means only "another vertex's
 * thread is decoding this segment right now"; the demux runs the stripe's waker when it lets go.
 *
 * <p>Single-threaded: owned by its vertex's thread, like every run.
 */
final class StripeQueueRun extends ChunkedRun {
    private final StripeDemux demux;
    private final int stripe;
    private byte[] chunk;
    /** Records a detached stripe still has to pass over in {@link #rawOwn} before reading {@link #own}. */
    private static final int SKIP_PER_ADVANCE = 4096;
    private SortedRun rawOwn;
    private long toSkip;
    private SortedRun own;
    private boolean ended;
    private boolean closed;

    StripeQueueRun(StripeDemux demux, int stripe, String label) {
        super(label);
        this.demux = demux;
        this.stripe = stripe;
    }

    @Override
    protected Advance afterChunk() throws IOException {
        if (closed) {
            throw new IOException("stripe " + stripe + ": read after close");
        }
        if (rawOwn != null) {
            return advanceOwn();
        }
        while (!ended) {
            StripeDemux.Take take = demux.take(stripe, chunk);
            chunk = null;
            if (take.detachedAtRecord() >= 0) {
                rawOwn = demux.openSegment();
                own = demux.striper().stripe(rawOwn, stripe);
                toSkip = take.detachedAtRecord();
                return advanceOwn();
            }
            switch (take.advance()) {
                case RECORD -> {
                    chunk = take.chunk();
                    cursor.reset(chunk, 0, take.length());
                    if (nextInChunk()) {
                        return Advance.RECORD;
                    }
                }
                case NO_DATA_YET -> {
                    return Advance.NO_DATA_YET;
                }
                case END -> ended = true;
                default -> throw new AssertionError(take.advance());
            }
        }
        return Advance.END;
    }

    /** Reads on with the stripe's own cursor, after passing over (a bounded number per call) what the demux read. */
    private Advance advanceOwn() throws IOException {
        if (toSkip > 0) {
            toSkip -= StripeDemux.skip(rawOwn, Math.min(toSkip, SKIP_PER_ADVANCE), "stripe " + stripe);
            if (toSkip > 0) {
                demux.wake(stripe); // an explicit stall that ends at once: yield the thread, run again
                return Advance.NO_DATA_YET;
            }
        }
        Advance step = own.advance();
        if (step == Advance.RECORD) {
            RawBytes k = own.key();
            RawBytes v = own.value();
            key().set(k.array(), k.offset(), k.length());
            value().set(v.array(), v.offset(), v.length());
        }
        return step;
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        chunk = null;
        dropChunk();
        try {
            if (own != null) {
                own.close();
            }
        } finally {
            demux.release(stripe);
        }
    }
}
