package org.camdoop.torus.transport.link;

/**
 * Delays between reconnection attempts: doubling from {@code initial} up to {@code max}, reset by a successful
 * handshake. Deterministic (no jitter): links to different neighbours already start at different moments.
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

    public void reset() {
        next = initialNanos;
    }
}
