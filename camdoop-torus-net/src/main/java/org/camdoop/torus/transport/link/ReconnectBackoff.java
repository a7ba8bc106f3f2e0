package org.camdoop.torus.transport.link;

/**
 * Delays between reconnection attempts: doubling from {@code initial} up to {@code max}, reset by a successful
 * handshake. Deterministic (no jitter): links to different neighbours already start at different moments.
 *
 * <p>The side that accepts a link checks, once its connection drops, that the neighbour still listens
 * ({@link #afterDropNanos}): at once after a connection that stood for at least {@code initial}, so that a killed
 * daemon's refusal declares its run failed (FailureDetector) within a round trip; after {@code initial} for one that
 * dropped sooner, so a peer that accepts and drops cannot make it dial in a loop. The side that dials redials after
 * the usual delays: redialling at once too changed the timing of every cut link's recovery, and with it the fault
 * campaign failed one run in five or six (a pause naming a live server's output; not diagnosed, docs/recovery.md).
 *
 * <p>Not thread-safe: owned by the link's event loop.
 */
public final class ReconnectBackoff {

    private final long initialNanos;
    private final long maxNanos;
    private long next;
    /** When the current connection came up ({@link #connected}); {@code Long.MIN_VALUE} before the first. */
    private long connectedAtNanos = Long.MIN_VALUE;

    public ReconnectBackoff(long initialNanos, long maxNanos) {
        if (initialNanos <= 0 || maxNanos < initialNanos) {
            throw new IllegalArgumentException("backoff needs 0 < initial <= max");
        }
        this.initialNanos = initialNanos;
        this.maxNanos = maxNanos;
        this.next = initialNanos;
    }

    /** The delay before the next attempt; each call doubles the following one, up to the maximum. */
    public long nextDelayNanos() {
        long d = next;
        next = Math.min(maxNanos, next * 2);
        return d;
    }

    /**
     * The delay before the first attempt after the connection dropped at {@code nowNanos}: none if it had stood for at
     * least the initial delay, else {@link #nextDelayNanos()}.
     */
    public long afterDropNanos(long nowNanos) {
        if (connectedAtNanos != Long.MIN_VALUE && nowNanos - connectedAtNanos >= initialNanos) {
            connectedAtNanos = Long.MIN_VALUE;
            return 0;
        }
        return nextDelayNanos();
    }

    /** A connection came up at {@code nowNanos}: the delays start again from the initial one. */
    public void connected(long nowNanos) {
        next = initialNanos;
        connectedAtNanos = nowNanos;
    }
}
