package org.camdoop.torus.transport;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * What can make a node's links ready for a START (a link coming up, a failure view that no longer needs a link), so
 * {@link TorusNode#awaitLinksUp} waits on these events rather than polling. Thread-safe: guarded by its own monitor.
 */
final class ReadinessEvents {

    private long linkUps;
    private long viewChanges;

    synchronized void linkUp() {
        linkUps++;
        notifyAll();
    }

    synchronized void viewChanged() {
        viewChanges++;
        notifyAll();
    }

    /** How many times a link has come up (a link that flapped counts twice). */
    synchronized long linkUps() {
        return linkUps;
    }

    /**
     * Waits until {@code ready} holds, asking again after each event.
     *
     * @return whether it holds; false if {@code timeout} passed first
     */
    boolean await(BooleanSupplier ready, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long seen;
            synchronized (this) {
                seen = linkUps + viewChanges;
            }
            if (ready.getAsBoolean()) {
                return true;
            }
            synchronized (this) {
                while (linkUps + viewChanges == seen) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        return false;
                    }
                    TimeUnit.NANOSECONDS.timedWait(this, left);
                }
            }
        }
    }
}
