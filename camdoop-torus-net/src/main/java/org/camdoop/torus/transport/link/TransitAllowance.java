package org.camdoop.torus.transport.link;

/**
 * The bytes of routed frames one node may hold in transit (queued for the next hop, across all its links), so a peer
 * that ignores credit cannot make a forwarder buffer without bound. Honest traffic stays far below the cap: every
 * stream's end-to-end credit already bounds what it has in flight. Event-loop owned, shared by the node's links.
 */
public final class TransitAllowance {

    private final long maxBytes;
    private long usedBytes;
    private long refused;

    /** @param maxBytes the cap; at least one frame */
    public TransitAllowance(long maxBytes) {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("the transit cap must be positive, got " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    /** Takes {@code n} bytes if they fit under the cap; counts a refusal otherwise. */
    boolean tryTake(int n) {
        if (usedBytes + n > maxBytes) {
            refused++;
            return false;
        }
        usedBytes += n;
        return true;
    }

    /** Gives back {@code n} bytes (the frame was written or dropped). */
    void give(int n) {
        usedBytes -= n;
    }

    public long usedBytes() {
        return usedBytes;
    }

    public long maxBytes() {
        return maxBytes;
    }

    /** Frames refused because the cap was reached. */
    public long refused() {
        return refused;
    }
}
