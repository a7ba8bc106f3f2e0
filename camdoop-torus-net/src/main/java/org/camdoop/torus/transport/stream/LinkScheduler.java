package org.camdoop.torus.transport.stream;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongToIntFunction;

/**
 * Chooses which source a link serves next. Urgent sources first (round-robin among them: a merge downstream is blocked
 * on them); otherwise deficit round-robin between jobs, each job's quantum scaled by its weight (Orchestra's weighted
 * sharing), and plain round-robin between the sources of one job. A source is served one frame per pick and goes back
 * to the tail of its queue if it still has a frame to send.
 *
 * <p>Not thread-safe: owned by the event loop of the link.
 */
public final class LinkScheduler {

    private final int quantumBytes;
    private final LongToIntFunction jobWeight;
    private final ArrayDeque<ScheduledSource> urgent = new ArrayDeque<>();
    private final ArrayDeque<JobQueue> ring = new ArrayDeque<>();
    private final Map<Long, JobQueue> jobs = new HashMap<>();

    /** Per-job state. */
    private static final class JobQueue {
        final ArrayDeque<ScheduledSource> sources = new ArrayDeque<>();
        long deficit;
        boolean inRing;
        boolean inTurn;
    }

    /**
     * @param quantumBytes bytes a weight-1 job may send per round (at least one full frame)
     * @param jobWeight    the weight of a job (1 by default; read at the start of each of the job's turns)
     */
    public LinkScheduler(int quantumBytes, LongToIntFunction jobWeight) {
        this.quantumBytes = quantumBytes;
        this.jobWeight = jobWeight;
    }

    /** Adds a source that has a frame to send; no-op if it is already queued. */
    public void enqueue(ScheduledSource s) {
        if (s.queued) {
            return;
        }
        s.queued = true;
        if (s.urgent()) {
            urgent.addLast(s);
            return;
        }
        JobQueue j = jobs.computeIfAbsent(s.job(), k -> new JobQueue());
        j.sources.addLast(s);
        if (!j.inRing) {
            j.inRing = true;
            ring.addLast(j);
        }
    }

    /** Takes a source out (it closed, or its urgency changed and it will be enqueued again). */
    public void remove(ScheduledSource s) {
        if (!s.queued) {
            return;
        }
        s.queued = false;
        if (!urgent.remove(s)) {
            JobQueue j = jobs.get(s.job());
            if (j != null) {
                j.sources.remove(s);
            }
        }
    }

    /**
     * The next source to serve one frame from, taken out of its queue (enqueue it again if it has more), or
     * {@code null} when no queued source has anything sendable. Sources found with nothing sendable are dropped; their
     * owner enqueues them again when data or credit arrives.
     */
    public ScheduledSource next() {
        while (!urgent.isEmpty()) {
            ScheduledSource s = urgent.pollFirst();
            s.queued = false;
            if (s.nextFrameBytes() > 0) {
                return s;
            }
        }
        while (!ring.isEmpty()) {
            JobQueue j = ring.peekFirst();
            if (j.sources.isEmpty()) {
                ring.pollFirst();
                j.inRing = false;
                j.inTurn = false;
                j.deficit = 0;
                continue;
            }
            if (!j.inTurn) {
                j.inTurn = true;
                j.deficit += (long) quantumBytes * Math.max(1, jobWeight.applyAsInt(j.sources.peekFirst().job()));
            }
            ScheduledSource s = j.sources.peekFirst();
            int cost = s.nextFrameBytes();
            if (cost == 0) {
                j.sources.pollFirst();
                s.queued = false;
                continue;
            }
            if (cost <= j.deficit) {
                j.deficit -= cost;
                j.sources.pollFirst();
                s.queued = false;
                return s;
            }
            j.inTurn = false;
            ring.addLast(ring.pollFirst());
        }
        return null;
    }

    /** Whether any source is queued (it may still turn out to have nothing sendable). */
    public boolean isEmpty() {
        return urgent.isEmpty() && ring.isEmpty();
    }
}
