package org.camdoop.shuffle.service;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.camdoop.shuffle.protocol.Refusal;

/**
 * A daemon's running totals since it started, for metrics: shuffles started here as root, STARTs from peers and those
 * refused, shuffles aborted, servers declared failed, shuffles restarted after a failure, servers taken back into the
 * view after a failure (a new run of their daemon connected), shuffles whose trees a failure touched repaired in place
 * (the others running on), records its vertices
 * combined, the time they waited for their outputs' credit, local requests refused by reason. Written by whichever
 * thread sees the event (adders: no contention on the data path), read as a snapshot.
 */
public final class DaemonCounters {

    /** The totals at one moment. */
    public record Snapshot(long rootStarts, long peerStarts, long startsRefused, long aborts, long failuresDeclared,
            long restarts, long pauses, long rejoins, long recordsCombined, long creditWaitNanos,
            Map<Refusal, Long> refusals, long repairs) {
        public Snapshot {
            refusals = Map.copyOf(refusals);
        }

        /** All zero (a daemon that has done nothing, or a test's snapshot). */
        public static Snapshot none() {
            Map<Refusal, Long> none = new EnumMap<>(Refusal.class);
            for (Refusal r : Refusal.values()) {
                none.put(r, 0L);
            }
            return new Snapshot(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, none, 0);
        }
    }

    private final LongAdder rootStarts = new LongAdder();
    private final LongAdder peerStarts = new LongAdder();
    private final LongAdder startsRefused = new LongAdder();
    private final LongAdder aborts = new LongAdder();
    private final LongAdder failuresDeclared = new LongAdder();
    private final LongAdder restarts = new LongAdder();
    private final LongAdder pauses = new LongAdder();
    private final LongAdder repairs = new LongAdder();
    private final LongAdder rejoins = new LongAdder();
    private final LongAdder recordsCombined = new LongAdder();
    private final LongAdder creditWaitNanos = new LongAdder();
    private final Map<Refusal, LongAdder> refusals = new EnumMap<>(Refusal.class);

    public DaemonCounters() {
        for (Refusal r : Refusal.values()) {
            refusals.put(r, new LongAdder());
        }
    }

    void rootStarted() {
        rootStarts.increment();
    }

    void peerStartReceived() {
        peerStarts.increment();
    }

    void startRefused() {
        startsRefused.increment();
    }

    void aborted() {
        aborts.increment();
    }

    void failureDeclared() {
        failuresDeclared.increment();
    }

    void restarted() {
        restarts.increment();
    }

    void repaired() {
        repairs.increment();
    }

    void paused() {
        pauses.increment();
    }

    void rejoined() {
        rejoins.increment();
    }

    void combined(long records) {
        recordsCombined.add(records);
    }

    void waitedForCredit(long nanos) {
        creditWaitNanos.add(nanos);
    }

    /** A local request was refused (the endpoint counts them here). */
    public void refused(Refusal why) {
        refusals.get(why).increment();
    }

    public Snapshot snapshot() {
        Map<Refusal, Long> r = new EnumMap<>(Refusal.class);
        refusals.forEach((why, n) -> r.put(why, n.sum()));
        return new Snapshot(rootStarts.sum(), peerStarts.sum(), startsRefused.sum(), aborts.sum(),
                failuresDeclared.sum(), restarts.sum(), pauses.sum(), rejoins.sum(), recordsCombined.sum(),
                creditWaitNanos.sum(), r, repairs.sum());
    }
}
