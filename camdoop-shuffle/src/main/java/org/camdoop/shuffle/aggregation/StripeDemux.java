package org.camdoop.shuffle.aggregation;

import org.camdoop.shuffle.records.ChunkFifo;
import org.camdoop.shuffle.records.RecordLayout;
import org.camdoop.shuffle.records.RawBytes;
import java.io.IOException;
import org.apache.hadoop.fs.ChecksumException;

/**
 * Decodes one local map output partition <em>once</em> for all the stripes (trees) a daemon's vertices of one shuffle
 * read from it: one reader (checksum, codec, record parsing as in {@link MapOutputPartitionRun}), each record hashed
 * once ({@link KeyStriper#stripeOf}) and copied into its stripe's bounded queue of chunks, which that stripe's
 * {@link StripeQueueRun} reads.
 *
 * <p><b>Nobody waits for anybody.</b> The trees progress independently across servers (a vertex may wait, by the
 * blocked-merge rule, on a child elsewhere whose own progress depends on another tree here), so a shared reader that
 * stopped when one stripe's queue was full could close a wait-for cycle across servers. This demux never stops for a
 * consumer: it is driven by whichever consumer finds its own queue empty, on that consumer's thread, and a stripe whose
 * queue would exceed {@link #stripeBoundBytes()} and which cannot borrow more from the daemon's {@link ReadaheadPool}
 * is <em>detached</em>: it keeps what is queued and then reads on with its own cursor over the segment from the record
 * where the demux left it (today's one-reader-per-tree path). The only
 * stall is the lock: a consumer that finds its queue empty while another thread is decoding reports
 * {@link Advance#NO_DATA_YET} and is woken (its waker runs) when that thread lets go; a decoding pass ends once the
 * driving stripe has a chunk, is detached, or the segment ends, or after {@link #PASS_BYTES} (then the driver yields
 * its thread with NO_DATA_YET and its own waker, like a merge that used its pump budget). Common case: one decode; worst case (every stripe but one
 * detached): what one reader per stripe costs.
 *
 * <p>Memory: one read block (64 KB at most) plus at most {@code stripeBoundBytes} (plus one record) queued per stripe,
 * plus what stripes borrow from the daemon's {@link ReadaheadPool} (whole chunks, given back as their queues drain).
 *
 * <p>Corruption: stripes see records before the segment's CRC is verified (as with one reader per stripe), but a stripe
 * reports its end only after the demux has read the EOF marker and verified the CRC; a checksum or format failure
 * fails every stripe still reading (each gets its own exception, a {@link ChecksumException} if the CRC failed).
 *
 * <p>Thread-safety: the decoder and the queues are guarded by {@code lock}; each {@link StripeQueueRun} is owned by
 * the one thread of its vertex. Wakers run on the thread that released the lock, after releasing it.
 */
public final class StripeDemux {
    /**
     * Bytes a stripe may have queued before it is detached. A segment smaller than this per stripe never detaches and
     * costs its own size; a larger one costs at most this per stripe: 1.5 MB for six trees, against the six 64 KB read
     * buffers of one reader per tree, traded for decoding once while the trees stay within 256 KB of each other.
     */
    public static final int DEFAULT_STRIPE_BOUND_BYTES = 256 * 1024;
    static final int CHUNK_BYTES = 16 * 1024;
    /**
     * Record bytes one decoding pass may read before it lets go of the thread: the vertex executor is shared, so a
     * pass is bounded like a merge pump, not by how rare the driving stripe's keys are.
     */
    static final int PASS_BYTES = 128 * 1024;

    private enum StripeState { UNCLAIMED, QUEUED, DETACHED, CLOSED }

    /** A stripe's queue of whole-record chunks (guarded by the demux's lock). */
    private static final class Stripe {
        final ChunkFifo sealed = new ChunkFifo();
        byte[] free;
        byte[] open;
        int openFill;
        long queuedBytes;
        /** Bytes of the {@link ReadaheadPool} this stripe holds, whole chunks, to queue beyond its own bound. */
        long borrowed;
        long detachedAtRecord = -1;
        StripeState state = StripeState.UNCLAIMED;
        Runnable waker = () -> { };

        void append(RawBytes key, RawBytes value) {
            int size = RecordLayout.recordSize(key.length(), value.length());
            if (open != null && openFill + size > open.length) {
                seal();
            }
            if (open == null) {
                open = free != null && free.length >= size ? free : new byte[Math.max(CHUNK_BYTES, size)];
                if (open == free) {
                    free = null;
                }
                openFill = 0;
            }
            openFill = RecordLayout.writeRecord(open, openFill, key, value);
            queuedBytes += size;
        }

        void seal() {
            if (open != null && openFill > 0) {
                sealed.add(open, openFill);
                open = null;
                openFill = 0;
            }
        }

        void clear() {
            sealed.clear();
            open = null;
            openFill = 0;
            free = null;
            queuedBytes = 0;
        }
    }

    /** What {@link #take} hands a consumer. */
    record Take(byte[] chunk, int length, Advance advance, long detachedAtRecord) {
        static final Take BUSY = new Take(null, 0, Advance.NO_DATA_YET, -1);
        static final Take END = new Take(null, 0, Advance.END, -1);
    }

    private final String label;
    private final RunSource source;
    private final KeyStriper striper;
    private final int stripeBoundBytes;
    private final ReadaheadPool readahead;
    /** Stripes whose consumers found it held are woken by whoever releases it, whatever it held it for. */
    private final WakingLock lock = new WakingLock(s -> wake(s));
    private final Stripe[] stripes;

    // Guarded by lock.
    private SortedRun reader;
    private long recordsRead;
    private boolean ended;
    private IOException failure;
    private int detached;

    /**
     * Opens the segment once; stripes are then claimed with {@link #claim}. Until a stripe is claimed its records are
     * dropped, so claim every stripe before any consumer reads.
     */
    public StripeDemux(String label, RunSource source, KeyStriper striper, int stripeBoundBytes) throws IOException {
        this(label, source, striper, stripeBoundBytes, ReadaheadPool.NONE);
    }

    /**
     * A demux whose stripes may queue beyond {@code stripeBoundBytes} with memory borrowed from {@code readahead}
     * before they detach.
     */
    public StripeDemux(String label, RunSource source, KeyStriper striper, int stripeBoundBytes,
            ReadaheadPool readahead) throws IOException {
        if (striper.stripes() > Integer.SIZE) {
            throw new IllegalArgumentException("at most " + Integer.SIZE + " stripes: " + striper.stripes());
        }
        if (stripeBoundBytes < 1) {
            throw new IllegalArgumentException("stripe bound must be positive: " + stripeBoundBytes);
        }
        this.label = label;
        this.source = source;
        this.striper = striper;
        this.stripeBoundBytes = stripeBoundBytes;
        this.readahead = readahead;
        this.stripes = new Stripe[striper.stripes()];
        for (int s = 0; s < stripes.length; s++) {
            stripes[s] = new Stripe();
        }
        this.reader = source.open();
    }

    public int stripeBoundBytes() {
        return stripeBoundBytes;
    }

    /**
     * The run of {@code stripe}'s records; {@code waker} is called (on another thread, without locks held) when a
     * {@link Advance#NO_DATA_YET} it returned may have ended.
     *
     * @throws IllegalStateException if the stripe was claimed already
     */
    public SortedRun claim(int stripe, Runnable waker) {
        if (stripe < 0 || stripe >= stripes.length) {
            throw new IllegalArgumentException("stripe " + stripe + " not in [0, " + stripes.length + ")");
        }
        lock.lock();
        try {
            Stripe s = stripes[stripe];
            if (s.state != StripeState.UNCLAIMED || recordsRead > 0) {
                throw new IllegalStateException(label + ": stripe " + stripe + " claimed twice or after reading began");
            }
            s.state = StripeState.QUEUED;
            s.waker = waker;
        } finally {
            lock.unlock();
        }
        return new StripeQueueRun(this, stripe, label + " stripe " + stripe);
    }

    /** Bytes queued for {@code stripe} now (for tests of the bound). */
    long queuedBytes(int stripe) {
        lock.lock();
        try {
            return stripes[stripe].queuedBytes;
        } finally {
            lock.unlock();
        }
    }

    /** Stripes detached to their own cursor so far (for tests and logs). */
    public int detachedStripes() {
        lock.lock();
        try {
            return detached;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The next chunk of {@code stripe}, decoding more if its queue is empty; {@link Take#BUSY} if another thread is
     * decoding (the stripe's waker runs when it lets go). {@code done} is the consumer's previous chunk, for reuse.
     */
    Take take(int stripe, byte[] done) throws IOException {
        if (!lock.tryLockOrRegister(stripe)) {
            return Take.BUSY;
        }
        try {
            Stripe s = stripes[stripe];
            if (done != null && s.free == null) {
                s.free = done;
            }
            while (true) {
                if (failure != null) {
                    throw copyOf(failure);
                }
                byte[] chunk = s.sealed.peekChunk();
                if (chunk != null) {
                    int length = s.sealed.peekLength();
                    s.sealed.remove();
                    s.queuedBytes -= length;
                    giveBackSpare(s);
                    return new Take(chunk, length, Advance.RECORD, -1);
                }
                if (s.openFill > 0) {
                    s.seal();
                    continue;
                }
                if (s.state == StripeState.DETACHED) {
                    return new Take(null, 0, Advance.NO_DATA_YET, s.detachedAtRecord);
                }
                if (s.state != StripeState.QUEUED) {
                    throw new IOException(label + ": stripe " + stripe + " read after close");
                }
                if (ended) {
                    return Take.END;
                }
                if (!decodeFor(stripe)) {
                    // A full pass found nothing for this stripe: yield the thread; the wake after unlock reruns us.
                    lock.wakeAfterUnlock(stripe);
                    return Take.BUSY;
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Decodes until {@code stripe} has a whole chunk or is detached, or the segment ends, or {@link #PASS_BYTES} were
     * read; false if the pass ended with nothing for {@code stripe}. Holds the lock.
     */
    private boolean decodeFor(int stripe) throws IOException {
        Stripe mine = stripes[stripe];
        long passed = 0;
        try {
            while (mine.sealed.isEmpty() && mine.state == StripeState.QUEUED) {
                if (passed >= PASS_BYTES) {
                    if (mine.openFill == 0) {
                        return false;
                    }
                    mine.seal();
                    return true;
                }
                Advance step = reader.advance();
                if (step == Advance.END) {
                    ended = true;
                    for (Stripe s : stripes) {
                        s.seal();
                    }
                    return true;
                }
                if (step != Advance.RECORD) {
                    throw new IllegalStateException(label + ": a map output segment reported " + step);
                }
                long index = recordsRead++;
                RawBytes key = reader.key();
                passed += RecordLayout.recordSize(key.length(), reader.value().length());
                Stripe s = stripes[striper.stripeOf(key)];
                if (s.state != StripeState.QUEUED) {
                    continue; // unclaimed, closed, or reading on its own cursor
                }
                if (s.queuedBytes > 0 && !fits(s, RecordLayout.recordSize(key.length(), reader.value().length()))) {
                    // Its tree lags too far: stop holding its records, so no other tree ever waits for it.
                    s.state = StripeState.DETACHED;
                    s.detachedAtRecord = index;
                    s.seal();
                    detached++;
                    continue;
                }
                s.append(key, reader.value());
            }
            return true;
        } catch (IOException | RuntimeException e) {
            failure = e instanceof IOException io ? io : new IOException(label + ": " + e, e);
            closeReader();
            throw copyOf(failure);
        }
    }

    /** Whether {@code size} more bytes fit in {@code s}'s queue: its bound plus what it borrows from the pool. */
    private boolean fits(Stripe s, int size) {
        long over = s.queuedBytes + size - stripeBoundBytes - s.borrowed;
        if (over <= 0) {
            return true;
        }
        long chunks = (over + CHUNK_BYTES - 1) / CHUNK_BYTES * CHUNK_BYTES;
        if (!readahead.tryTake(chunks)) {
            return false;
        }
        s.borrowed += chunks;
        return true;
    }

    /** Gives back the whole chunks of {@code s}'s borrowed memory its queue no longer needs. */
    private void giveBackSpare(Stripe s) {
        long needed = Math.max(0, s.queuedBytes - stripeBoundBytes);
        long back = (s.borrowed - needed) / CHUNK_BYTES * CHUNK_BYTES;
        if (back > 0) {
            readahead.give(back);
            s.borrowed -= back;
        }
    }

    /**
     * Passes over up to {@code max} records of a detached stripe's own {@code raw} cursor (unfiltered); returns how
     * many. Bounded so a stripe catching up does not hold the shared vertex thread for a whole segment.
     */
    static long skip(SortedRun raw, long max, String label) throws IOException {
        for (long i = 0; i < max; i++) {
            if (raw.advance() != Advance.RECORD) {
                throw new IOException(label + ": segment has fewer records on a second read");
            }
        }
        return max;
    }

    /** Runs {@code stripe}'s waker (a detached stripe that yielded while catching up). */
    void wake(int stripe) {
        stripes[stripe].waker.run();
    }

    /** The unfiltered segment, opened anew (a detached stripe's own cursor, before filtering). */
    SortedRun openSegment() throws IOException {
        return source.open();
    }

    KeyStriper striper() {
        return striper;
    }

    /** The consumer of {@code stripe} is done with it (finished, failed or aborted). */
    void release(int stripe) throws IOException {
        lock.lock();
        try {
            Stripe s = stripes[stripe];
            s.state = StripeState.CLOSED;
            s.clear();
            readahead.give(s.borrowed);
            s.borrowed = 0;
            for (Stripe other : stripes) {
                if (other.state == StripeState.QUEUED) {
                    return;
                }
            }
            closeReader();
        } finally {
            lock.unlock();
        }
    }

    private void closeReader() {
        try {
            reader.close();
        } catch (IOException ignored) {
            // nothing more will be read; the consumers' outcome does not depend on releasing the file
        }
    }

    /** Each consumer gets its own exception (they are thrown on different threads), of the same kind and message. */
    private static IOException copyOf(IOException failure) {
        IOException copy = failure instanceof ChecksumException c
                ? new ChecksumException(c.getMessage(), c.getPos())
                : new IOException(failure.getMessage());
        copy.initCause(failure);
        return copy;
    }
}
