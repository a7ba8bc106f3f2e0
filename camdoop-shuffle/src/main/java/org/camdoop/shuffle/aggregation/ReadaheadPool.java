package org.camdoop.shuffle.aggregation;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Memory a daemon's {@link StripeDemux}es share for records decoded ahead of a lagging tree, beyond each stripe's own
 * bound. Why a shared pool and not a larger bound: how far a tree lags behind the others is set by the depth of its
 * vertex here and the buffering on each hop below it, not by the size of the map output, so a fixed bound per stripe
 * is too small for a few lagging stripes (each then decodes the whole segment a second time, which cost a fifth of the
 * CPU of a 3x3x3 shuffle) and too large to grant every stripe of every shuffle. Borrowed a chunk at a time; when the
 * pool is empty a stripe detaches as before, so memory stays bounded by the pool plus the bounds.
 *
 * <p>Thread-safe: demuxes of different shuffles take and give on their consumers' threads.
 */
public final class ReadaheadPool {
    /** No shared memory: each stripe is held to its own bound. */
    public static final ReadaheadPool NONE = new ReadaheadPool(0);

    private final long capacity;
    private final AtomicLong used = new AtomicLong();

    /** A pool of {@code capacityBytes} (0 for none). */
    public ReadaheadPool(long capacityBytes) {
        if (capacityBytes < 0) {
            throw new IllegalArgumentException("read-ahead pool must not be negative: " + capacityBytes);
        }
        this.capacity = capacityBytes;
    }

    /** Takes {@code bytes} if that many are free; false (taking nothing) otherwise. */
    boolean tryTake(long bytes) {
        while (true) {
            long now = used.get();
            if (now + bytes > capacity) {
                return false;
            }
            if (used.compareAndSet(now, now + bytes)) {
                return true;
            }
        }
    }

    /** Gives back {@code bytes} taken before. */
    void give(long bytes) {
        long after = used.addAndGet(-bytes);
        if (after < 0) {
            throw new IllegalStateException("read-ahead pool given back more than was taken: " + after);
        }
    }

    public long capacityBytes() {
        return capacity;
    }

    /** Bytes lent out now. */
    public long usedBytes() {
        return used.get();
    }
}
