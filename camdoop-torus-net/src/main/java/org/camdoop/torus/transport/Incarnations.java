package org.camdoop.torus.transport;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Incarnations: which run of a daemon process a node is. A node takes one when it starts and announces it in every
 * link handshake; a restarted daemon takes a larger one, so the other daemons can tell it from the run they declared
 * failed (docs/recovery.md, "Rejoin"). The wall clock in milliseconds orders runs of processes on one host (a restart
 * takes longer than a millisecond); within one JVM (an embedded torus restarting a node) each value is larger than the
 * last. A clock set back further than a daemon was down gives its new run a smaller incarnation: the others then keep
 * it out as failed, as before rejoin existed, and the log says so.
 */
final class Incarnations {

    private static final AtomicLong LAST = new AtomicLong();

    private Incarnations() {
    }

    /** A positive incarnation larger than any this JVM handed out before, and normally than any earlier process's. */
    static long next() {
        long now = System.currentTimeMillis();
        return LAST.updateAndGet(last -> Math.max(last + 1, now));
    }
}
