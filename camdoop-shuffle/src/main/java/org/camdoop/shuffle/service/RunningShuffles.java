package org.camdoop.shuffle.service;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The shuffles with vertices running on this daemon, and who waits for there to be none ({@link #whenIdle}).
 *
 * <p>Thread-safety: the map is concurrent; the idle waiters are guarded by their list, and every removal checks for
 * idleness under that lock, so a waiter registered while the last shuffle ends is never missed.
 */
final class RunningShuffles {
    private final Map<ShuffleKey, RunningShuffle> running = new ConcurrentHashMap<>();
    private final List<CompletableFuture<Void>> idleWaiters = new ArrayList<>();

    /** Registers {@code shuffle} under {@code key}; false (registering nothing) if one runs under it already. */
    boolean add(ShuffleKey key, RunningShuffle shuffle) {
        return running.putIfAbsent(key, shuffle) == null;
    }

    /** Removes whatever runs under {@code key}; null if nothing does. */
    RunningShuffle remove(ShuffleKey key) {
        RunningShuffle r = running.remove(key);
        if (r != null) {
            signalIfIdle();
        }
        return r;
    }

    /** Removes {@code shuffle} if it is still the one under {@code key} (a retried shuffle may have replaced it). */
    void remove(ShuffleKey key, RunningShuffle shuffle) {
        if (running.remove(key, shuffle)) {
            signalIfIdle();
        }
    }

    /** What runs under {@code key}; null if nothing does. */
    RunningShuffle get(ShuffleKey key) {
        return running.get(key);
    }

    /** The root vertex of the shuffle running under {@code key}, if it runs here. */
    java.util.Optional<org.camdoop.shuffle.service.vertex.Vertex> rootVertex(ShuffleKey key) {
        RunningShuffle r = running.get(key);
        return r == null ? java.util.Optional.empty()
                : r.vertices().stream().filter(v -> v.plan().isRoot()).findFirst();
    }

    /** The shuffles running here that run {@code incarnation} of server {@code root} (or an earlier run) roots. */
    List<ShuffleKey> rootedBy(org.camdoop.torus.topology.Coord root, long incarnation) {
        List<ShuffleKey> out = new java.util.ArrayList<>();
        running.forEach((key, r) -> {
            if (r.spec().root().equals(root) && r.spec().generation().rootIncarnation() <= incarnation) {
                out.add(key);
            }
        });
        return out;
    }

    List<ShuffleKey> keys() {
        return List.copyOf(running.keySet());
    }

    int size() {
        return running.size();
    }

    /** The shuffles running here, at most {@code max} of them, by job and partition. */
    List<ShuffleStatus> statuses(int max) {
        return running.values().stream().map(RunningShuffle::status)
                .sorted(Comparator.comparing(ShuffleStatus::jobId).thenComparing(ShuffleStatus::partition))
                .limit(max).toList();
    }

    /** Completes once no shuffle runs here (at once if none does). */
    CompletableFuture<Void> whenIdle() {
        synchronized (idleWaiters) {
            if (running.isEmpty()) {
                return CompletableFuture.completedFuture(null);
            }
            CompletableFuture<Void> f = new CompletableFuture<>();
            idleWaiters.add(f);
            return f;
        }
    }

    /** Called after a removal; the check runs under the waiters' lock so none is missed. */
    private void signalIfIdle() {
        List<CompletableFuture<Void>> ready;
        synchronized (idleWaiters) {
            if (!running.isEmpty() || idleWaiters.isEmpty()) {
                return;
            }
            ready = List.copyOf(idleWaiters);
            idleWaiters.clear();
        }
        ready.forEach(f -> f.complete(null));
    }
}
