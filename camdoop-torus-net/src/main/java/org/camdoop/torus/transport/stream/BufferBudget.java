package org.camdoop.torus.transport.stream;

import java.util.concurrent.CompletableFuture;

/**
 * The fixed pool of packet buffers of one daemon, shared by all its open streams (inbound and outbound). Every buffer a
 * stream holds or has promised as credit is reserved here first, so buffer memory never exceeds
 * {@code totalBuffers * segmentBytes} whatever the number of jobs and streams. Each open stream keeps at least
 * {@code minPerStream} buffers (so it can always make progress) and may grow to the fair share
 * {@code (total - headroom) / openStreams}, but never past {@code maxPerStream}; streams above a shrunken share give
 * buffers back as they take in what their consumers released (an inbound stream does so lazily, at most a batch late:
 * {@link InboundStream}). The cap is what a stream needs to keep its link busy (its window): beyond it,
 * buffers only let the trees run ahead of their root, which holds memory for nothing and makes a restarted shuffle
 * redo the work they did ahead (docs/recovery.md).
 * Growth never eats the headroom (a quarter of the pool): it is what new streams take their minimum from while the
 * older streams shrink to the new share, so a stream can open at once even when the others are saturated.
 *
 * <p>Thread-safe: every field is guarded by {@code this}; critical sections are a few arithmetic operations.
 */
public final class BufferBudget {

    private final int totalBuffers;
    private final int segmentBytes;
    private final int minPerStream;
    private final int maxPerStream;
    private final int growthCap;

    /** Guarded by this. */
    private int reserved;
    /** Guarded by this. */
    private int streams;
    /** Guarded by this: high-water mark of {@link #reserved}, for tests and metrics. */
    private int peakReserved;
    /** Guarded by this: completed when {@link #streams} next drops to zero ({@link #whenNoOpenStreams}); or null. */
    private CompletableFuture<Void> noStreams;

    /**
     * @param minPerStream buffers every open stream keeps
     * @param maxPerStream buffers one stream may grow to, at least {@code minPerStream}
     */
    public BufferBudget(long budgetBytes, int segmentBytes, int minPerStream, int maxPerStream) {
        if (segmentBytes <= 0 || minPerStream <= 0) {
            throw new IllegalArgumentException("segment size and minimum per stream must be positive");
        }
        if (maxPerStream < minPerStream) {
            throw new IllegalArgumentException("a stream's maximum of " + maxPerStream + " buffers is below its minimum of "
                    + minPerStream);
        }
        long n = budgetBytes / segmentBytes;
        if (n < minPerStream) {
            throw new IllegalArgumentException("a buffer budget of " + budgetBytes + " bytes holds fewer than "
                    + minPerStream + " segments of " + segmentBytes + " bytes");
        }
        this.totalBuffers = (int) Math.min(Integer.MAX_VALUE, n);
        this.segmentBytes = segmentBytes;
        this.minPerStream = minPerStream;
        this.maxPerStream = maxPerStream;
        this.growthCap = totalBuffers - Math.max(minPerStream, totalBuffers / 4);
    }

    /**
     * Admits one more stream with its minimum reservation.
     *
     * @throws BudgetExhaustedException when the minimum cannot be reserved
     */
    public synchronized int register() {
        if (reserved + minPerStream > totalBuffers) {
            throw new BudgetExhaustedException("buffer budget exhausted: " + streams + " streams hold " + reserved
                    + " of " + totalBuffers + " buffers; cannot reserve " + minPerStream + " more for a new stream");
        }
        streams++;
        reserve(minPerStream);
        return minPerStream;
    }

    /** A stream closed and gives back every buffer it had reserved. */
    public void unregister(long heldReservation) {
        CompletableFuture<Void> drained = null;
        synchronized (this) {
            streams--;
            reserved -= (int) heldReservation;
            if (streams == 0) {
                drained = noStreams;
                noStreams = null;
            }
        }
        if (drained != null) {
            drained.complete(null);
        }
    }

    /**
     * Completes once no stream is open here (at once if none is): every stream closed and gave its buffers back. For
     * callers that wait for a daemon to settle (tests, an orderly stop) instead of polling {@link #openStreams}.
     */
    public CompletableFuture<Void> whenNoOpenStreams() {
        synchronized (this) {
            if (streams == 0) {
                return CompletableFuture.completedFuture(null);
            }
            if (noStreams == null) {
                noStreams = new CompletableFuture<>();
            }
            // A copy, so a caller that completes or cancels its future cannot wake the other waiters.
            return noStreams.copy();
        }
    }

    /** The share each stream may grow to now. */
    public synchronized int fairShare() {
        return Math.max(minPerStream, Math.min(maxPerStream, growthCap / Math.max(1, streams)));
    }

    /**
     * Reserves buffers for a stream that holds {@code held}, toward the fair share and at most {@code most} of them;
     * returns how many (0 at or above the share). One step under one lock, so the share cannot change in between.
     */
    public synchronized int growToward(int held, int most) {
        return exchange(0, Math.min(most, fairShare() - held));
    }

    /**
     * Gives back {@code release} buffers, then reserves up to {@code want} more (never into the headroom); returns how
     * many were reserved.
     */
    public synchronized int exchange(int release, int want) {
        reserved -= release;
        int g = Math.max(0, Math.min(want, growthCap - reserved));
        reserve(g);
        return g;
    }

    private void reserve(int n) {
        reserved += n;
        peakReserved = Math.max(peakReserved, reserved);
    }

    public synchronized int reservedBuffers() {
        return reserved;
    }

    public synchronized int peakReservedBuffers() {
        return peakReserved;
    }

    public synchronized int openStreams() {
        return streams;
    }

    public int totalBuffers() {
        return totalBuffers;
    }

    public int segmentBytes() {
        return segmentBytes;
    }

    public int minPerStream() {
        return minPerStream;
    }

    public long totalBytes() {
        return (long) totalBuffers * segmentBytes;
    }
}
