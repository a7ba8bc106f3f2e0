package org.camdoop.torus.transport.link;

/**
 * Delays between reconnection attempts: doubling from {@code initial} up to {@code max}, reset by a successful
 * handshake. Deterministic (no jitter): links to different neighbours already start at different moments.
 *
 * <p>A connection that had stood for at least {@code initial} and then dropped is redialled at once: when the
 * neighbour's daemon died (a crash, {@code kill -9}) its host refuses that dial, and the failure detector declares the
 * run failed on the spot instead of one backoff later. Only a connection that dropped sooner waits, so a peer that
 * keeps accepting and dropping is dialled at the backoff's pace, not in a loop.
 *
 * <p>Not thread-safe: owned by the link's event loop.
 */
public final class ReconnectBackoff {

    private final long initialNanos;
    private final long maxNanos;
    private long next;

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
     * The delay before redialling a connection that came up and then dropped after {@code upNanos}: none if it stood
     * for at least the initial delay, else {@link #nextDelayNanos()}.
     */
    public long afterDrop(long upNanos) {
        return upNanos >= initialNanos ? 0 : nextDelayNanos();
    }

    public void reset() {
        next = initialNanos;
    }
}
