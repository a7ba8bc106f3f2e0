package org.camdoop.torus.transport.link;

import java.util.function.LongSupplier;

/**
 * Liveness of one link from the times frames were last sent and received: send a heartbeat when the link has been
 * quiet in our direction for one interval; declare it down when nothing arrived for the timeout. Pure logic on an
 * injected clock, so it is tested without sleeping.
 *
 * <p>Not thread-safe: owned by the channel's event loop.
 */
public final class HeartbeatMonitor {

    /** What {@link #tick()} asks the link to do. */
    public enum Action { NONE, SEND_HEARTBEAT, DECLARE_DOWN }

    private final LongSupplier nanoClock;
    private final long intervalNanos;
    private final long timeoutNanos;
    private long lastReceived;
    private long lastSent;

    public HeartbeatMonitor(LongSupplier nanoClock, long intervalNanos, long timeoutNanos) {
        if (timeoutNanos <= intervalNanos) {
            throw new IllegalArgumentException("heartbeat timeout must exceed the interval");
        }
        this.nanoClock = nanoClock;
        this.intervalNanos = intervalNanos;
        this.timeoutNanos = timeoutNanos;
        long now = nanoClock.getAsLong();
        this.lastReceived = now;
        this.lastSent = now;
    }

    public void frameReceived() {
        lastReceived = nanoClock.getAsLong();
    }

    public void frameSent() {
        lastSent = nanoClock.getAsLong();
    }

    public Action tick() {
        long now = nanoClock.getAsLong();
        if (now - lastReceived >= timeoutNanos) {
            return Action.DECLARE_DOWN;
        }
        if (now - lastSent >= intervalNanos) {
            lastSent = now;
            return Action.SEND_HEARTBEAT;
        }
        return Action.NONE;
    }

    public long intervalNanos() {
        return intervalNanos;
    }
}
