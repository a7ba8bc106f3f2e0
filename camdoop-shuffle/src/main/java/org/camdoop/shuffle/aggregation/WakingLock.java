package org.camdoop.shuffle.aggregation;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntConsumer;

/**
 * A lock that consumers never wait for: a consumer (one of at most 32, by number) that finds it held registers and
 * returns; <em>every</em> unlock, whatever the holder was doing, then wakes each consumer registered. Waking lives in
 * {@link #unlock()} so that no holder can let go without it: a holder that did (closing a stripe, reading a figure for
 * a test) would strand a consumer that registered meanwhile, and its vertex would wait forever.
 *
 * <p>Why no wake is lost: a consumer registers <em>before</em> it tries the lock, and a holder reads the registrations
 * <em>after</em> it unlocked; a failed try means some holder held the lock after the registration, so that holder's
 * read comes after it too. Wakes may be spurious (a consumer woken that got the lock itself meanwhile); they only
 * cause one more try.
 */
final class WakingLock {
    private final ReentrantLock lock = new ReentrantLock();
    private final AtomicInteger waiting = new AtomicInteger();
    private final IntConsumer wake;

    /** @param wake called with a consumer's number, on the unlocking thread, after the lock is released */
    WakingLock(IntConsumer wake) {
        this.wake = wake;
    }

    /** Takes the lock if free; otherwise registers {@code consumer} to be woken by the holder's unlock. */
    boolean tryLockOrRegister(int consumer) {
        int bit = bit(consumer);
        waiting.getAndUpdate(w -> w | bit);
        if (!lock.tryLock()) {
            return false;
        }
        waiting.getAndUpdate(w -> w & ~bit);
        return true;
    }

    /** Asks for a wake at this holder's own unlock (a consumer that yields its thread while holding the lock). */
    void wakeAfterUnlock(int consumer) {
        if (!lock.isHeldByCurrentThread()) {
            throw new IllegalStateException("not held by this thread");
        }
        int bit = bit(consumer);
        waiting.getAndUpdate(w -> w | bit);
    }

    /** Takes the lock, waiting for it (holders that are not consumers: set-up, close, figures). */
    void lock() {
        lock.lock();
    }

    /** Releases the lock, then wakes every consumer registered. */
    void unlock() {
        lock.unlock();
        int w = waiting.getAndSet(0);
        while (w != 0) {
            int consumer = Integer.numberOfTrailingZeros(w);
            w &= w - 1;
            wake.accept(consumer);
        }
    }

    private static int bit(int consumer) {
        if (consumer < 0 || consumer >= Integer.SIZE) {
            throw new IllegalArgumentException("consumer " + consumer + " not in [0, " + Integer.SIZE + ")");
        }
        return 1 << consumer;
    }
}
