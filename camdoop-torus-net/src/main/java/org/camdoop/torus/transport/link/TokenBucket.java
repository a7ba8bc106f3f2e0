package org.camdoop.torus.transport.link;

import java.util.function.LongSupplier;

/**
 * Rate shaping for one direction of one link: {@code bytesPerSecond} with bursts up to {@code burstBytes}. A frame
 * may go out when the bucket is not in debt; its bytes are then taken even if that drives the bucket negative, so a
 * frame larger than the burst still passes and the long-run rate is exact.
 *
 * <p>Not thread-safe: owned by the link's event loop.
 */
public final class TokenBucket {

    private final LongSupplier nanoClock;
    private final double bytesPerNano;
    private final long burstBytes;
    private double tokens;
    private long lastRefill;

    public TokenBucket(LongSupplier nanoClock, long bytesPerSecond, long burstBytes) {
        if (bytesPerSecond <= 0 || burstBytes <= 0) {
            throw new IllegalArgumentException("rate and burst must be positive");
        }
        this.nanoClock = nanoClock;
        this.bytesPerNano = bytesPerSecond / 1e9;
        this.burstBytes = burstBytes;
        this.tokens = burstBytes;
        this.lastRefill = nanoClock.getAsLong();
    }

    /** Whether sending may go on now (the bucket is not in debt). */
    public boolean mayProceed() {
        refill();
        return tokens >= 0;
    }

    /** Charges {@code bytes} just sent or received. */
    public void consume(long bytes) {
        refill();
        tokens -= bytes;
    }

    /** Nanoseconds until the bucket is out of debt (0 if it is not in debt). */
    public long nanosUntilReady() {
        refill();
        return tokens >= 0 ? 0 : (long) Math.ceil(-tokens / bytesPerNano);
    }

    private void refill() {
        long now = nanoClock.getAsLong();
        tokens = Math.min(burstBytes, tokens + (now - lastRefill) * bytesPerNano);
        lastRefill = now;
    }
}
