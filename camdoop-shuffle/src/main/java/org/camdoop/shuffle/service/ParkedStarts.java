package org.camdoop.shuffle.service;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.camdoop.shuffle.protocol.ShuffleSpec;

/**
 * Shuffle STARTs that reached this daemon before the spec of their job did (START travels straight to each daemon, the
 * spec along the broadcast tree, so it can overtake). Each waits until the job becomes known ({@link #release}), is
 * refused, or its wait runs out; then {@code onTimeout} gets it. Meanwhile, every quarter of the wait, {@code stillWaiting}
 * gets it, so the daemon can ask for the spec again (the broadcast may have lost it). Bounded: beyond
 * {@link #MAX_PARKED} a START is not parked.
 *
 * <p>Thread-safe: {@link #lock} guards {@link #byJob} and {@link #emptyWaiters}. Callbacks and futures complete outside
 * the lock.
 */
final class ParkedStarts {

    static final int MAX_PARKED = 1024;

    /** What {@link #park} did. */
    enum Parking { PARKED, KNOWN_NOW, FULL }

    private record Parked(ShuffleSpec spec, ScheduledFuture<?> timeout, ScheduledFuture<?> reminders) {
        void cancel() {
            timeout.cancel(false);
            reminders.cancel(false);
        }
    }

    private final ScheduledExecutorService timer;
    private final long waitMs;
    private final Consumer<ShuffleSpec> stillWaiting;
    private final BiConsumer<ShuffleSpec, Long> onTimeout;
    private final Object lock = new Object();
    /** Job id to its parked starts. Guarded by {@link #lock}. */
    private final Map<String, List<Parked>> byJob = new HashMap<>();
    /** Waiting for no start to be parked ({@link #whenEmpty}). Guarded by {@link #lock}. */
    private final List<CompletableFuture<Void>> emptyWaiters = new ArrayList<>();

    /**
     * @param stillWaiting gets a parked start every quarter of the wait (on the timer's thread: keep it short)
     * @param onTimeout    gets a start whose job stayed unknown for {@code waitMs}, and the wait
     */
    ParkedStarts(ScheduledExecutorService timer, long waitMs, Consumer<ShuffleSpec> stillWaiting,
            BiConsumer<ShuffleSpec, Long> onTimeout) {
        this.timer = timer;
        this.waitMs = waitMs;
        this.stillWaiting = stillWaiting;
        this.onTimeout = onTimeout;
    }

    /**
     * Parks {@code spec} unless {@code known} says its job is known now. {@code known} is asked under the lock that
     * {@link #release} takes, so a job registered concurrently is either seen here or releases this start.
     */
    Parking park(ShuffleSpec spec, BooleanSupplier known) {
        synchronized (lock) {
            if (known.getAsBoolean()) {
                return Parking.KNOWN_NOW;
            }
            if (byJob.values().stream().mapToInt(List::size).sum() >= MAX_PARKED) {
                return Parking.FULL;
            }
            long quarter = Math.max(1, waitMs / 4);
            Parked p = new Parked(spec, timer.schedule(() -> expire(spec), waitMs, TimeUnit.MILLISECONDS),
                    timer.scheduleAtFixedRate(() -> stillWaiting.accept(spec), quarter, quarter,
                            TimeUnit.MILLISECONDS));
            byJob.computeIfAbsent(spec.jobId(), k -> new ArrayList<>()).add(p);
            return Parking.PARKED;
        }
    }

    /** The starts parked for {@code jobId}, no longer parked (the job is now known, or refused). */
    List<ShuffleSpec> release(String jobId) {
        List<Parked> out;
        List<CompletableFuture<Void>> emptied;
        synchronized (lock) {
            out = byJob.remove(jobId);
            emptied = emptied();
        }
        emptied.forEach(f -> f.complete(null));
        if (out == null) {
            return List.of();
        }
        out.forEach(Parked::cancel);
        return out.stream().map(Parked::spec).toList();
    }

    /** Drops the parked start of a shuffle (it was aborted). */
    void cancel(long streamKey, int partition) {
        List<CompletableFuture<Void>> emptied;
        synchronized (lock) {
            for (List<Parked> list : byJob.values()) {
                list.removeIf(p -> {
                    boolean match = p.spec().streamKey() == streamKey && p.spec().partition() == partition;
                    if (match) {
                        p.cancel();
                    }
                    return match;
                });
            }
            byJob.values().removeIf(List::isEmpty);
            emptied = emptied();
        }
        emptied.forEach(f -> f.complete(null));
    }

    int size() {
        synchronized (lock) {
            return byJob.values().stream().mapToInt(List::size).sum();
        }
    }

    /** Completes once no start is parked here (at once if none is). */
    CompletableFuture<Void> whenEmpty() {
        synchronized (lock) {
            if (byJob.isEmpty()) {
                return CompletableFuture.completedFuture(null);
            }
            CompletableFuture<Void> f = new CompletableFuture<>();
            emptyWaiters.add(f);
            return f;
        }
    }

    /** The waiters to wake if nothing is parked now (completed by the caller outside the lock). Caller holds lock. */
    private List<CompletableFuture<Void>> emptied() {
        if (!byJob.isEmpty() || emptyWaiters.isEmpty()) {
            return List.of();
        }
        List<CompletableFuture<Void>> ready = List.copyOf(emptyWaiters);
        emptyWaiters.clear();
        return ready;
    }

    private void expire(ShuffleSpec spec) {
        boolean removed;
        List<CompletableFuture<Void>> emptied;
        synchronized (lock) {
            List<Parked> list = byJob.get(spec.jobId());
            removed = list != null && list.removeIf(p -> {
                boolean match = p.spec() == spec;
                if (match) {
                    p.reminders().cancel(false);
                }
                return match;
            });
            if (list != null && list.isEmpty()) {
                byJob.remove(spec.jobId());
            }
            emptied = emptied();
        }
        emptied.forEach(f -> f.complete(null));
        if (removed) {
            onTimeout.accept(spec, waitMs);
        }
    }
}
