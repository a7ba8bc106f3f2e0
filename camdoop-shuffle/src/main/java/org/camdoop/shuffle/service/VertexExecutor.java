package org.camdoop.shuffle.service;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.camdoop.shuffle.service.vertex.VertexRun;

/**
 * The vertex threads: a fixed set of threads running control work first (service messages, a shuffle's set-up: any
 * task that is not a {@link VertexRun}), in arrival order, and then vertex runs. The shuffles with runs waiting take
 * turns, one run each; within a shuffle, the vertex furthest behind in the key space runs first
 * ({@link VertexRun#frontier}), and of two at the same frontier the one nearer its root, then the one waiting longer.
 *
 * <p>Why furthest behind first: a reducer's stream advances only as far as the slowest vertex below it, since a merge
 * emits a key only once every input has passed it. Running the vertex that lags keeps every tree's vertices at about
 * the same key, so the root emits from its first milliseconds and no vertex runs ahead of what the root can take.
 * Two orders were tried before. With one FIFO, the vertices without children, always runnable while their windows
 * had room, filled every window before the root delivered much (9 % of the output at half the shuffle's time, S=1,
 * 3x3x3). Nearest the root first moved data up once it reached the upper levels, but the vertices without children
 * near the root still ran ahead of the deepest chains: nothing reached the reducer for the first 0.35-0.45 s of a
 * 0.6-1.8 s shuffle (performance.md, section 13). Frontiers are compared only within a shuffle: those of different jobs
 * mean nothing to each other, and a range partitioner gives each partition its own part of the key space, so across
 * partitions the lowest would run first and the others wait. Keys that share their first eight bytes share a frontier,
 * and among them the order falls back to nearest the root first.
 *
 * <p>No run starves for long: a vertex has work only when data reached it from below or room opened above, and the
 * windows between them are bounded. Strict priority would still turn a vertex that keeps rescheduling itself without
 * progress (a bug, like the closed-stream wake-up loop of 2026-11-26) into a hang of the other vertices of its shuffle,
 * where a FIFO only wastes CPU; so every {@value #OLDEST_EVERY}th run is the one that has waited longest. The queues
 * are not bounded here: each vertex has at most one run queued ({@code Vertex}'s flag), and the service inbox bounds
 * the messages waiting.
 *
 * <p>Thread-safety: every field is guarded by {@code lock}. The hot path is one lock, a heap insertion and a heap
 * removal per run: a run is hundreds to thousands of records.
 */
public final class VertexExecutor extends AbstractExecutorService {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(VertexExecutor.class);
    /** Every this many vertex runs, the one that has waited longest goes first, so no run waits for ever. */
    static final int OLDEST_EVERY = 16;

    /** A vertex run waiting, with what it said when it was submitted. */
    private record Queued(VertexRun run, long frontier, int depth, long seq) {
    }

    /** Lowest frontier (unsigned), then nearest the root, then longest waiting. Written out: no boxing per compare. */
    private static final Comparator<Queued> BEHIND_FIRST = (a, b) -> {
        int byFrontier = Long.compareUnsigned(a.frontier(), b.frontier());
        if (byFrontier != 0) {
            return byFrontier;
        }
        int byDepth = Integer.compare(a.depth(), b.depth());
        return byDepth != 0 ? byDepth : Long.compare(a.seq(), b.seq());
    };

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition work = lock.newCondition();
    private final Condition finished = lock.newCondition();
    private final ArrayDeque<Runnable> control = new ArrayDeque<>();
    /** The runs waiting, per shuffle; a shuffle leaves the map (and the turns) when it has none. */
    private final Map<String, PriorityQueue<Queued>> waiting = new HashMap<>();
    /** Shuffles with runs waiting, in the order of their next turn. */
    private final ArrayDeque<String> turns = new ArrayDeque<>();
    private final List<Thread> threads = new ArrayList<>();
    private long submitted;
    private int queuedRuns;
    private int running;
    private long dispatchedRuns;
    private boolean shutdown;

    /** Starts {@code threads} threads from {@code factory}. */
    public VertexExecutor(int threads, ThreadFactory factory) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1, got " + threads);
        }
        for (int i = 0; i < threads; i++) {
            Thread t = factory.newThread(this::work);
            this.threads.add(t);
        }
        running = threads;
        this.threads.forEach(Thread::start);
    }

    @Override
    public void execute(Runnable task) {
        // Asked outside the lock: a vertex publishes its frontier before it can be submitted again.
        VertexRun run = task instanceof VertexRun r ? r : null;
        long frontier = run == null ? 0 : run.frontier();
        int depth = run == null ? 0 : run.depth();
        lock.lock();
        try {
            if (shutdown) {
                throw new RejectedExecutionException("the vertex threads are shut down");
            }
            if (run == null) {
                control.addLast(task);
            } else {
                PriorityQueue<Queued> runs = waiting.get(run.shuffle());
                if (runs == null) {
                    runs = new PriorityQueue<>(BEHIND_FIRST);
                    waiting.put(run.shuffle(), runs);
                    turns.addLast(run.shuffle());
                }
                runs.add(new Queued(run, frontier, depth, submitted++));
                queuedRuns++;
            }
            work.signal();
        } finally {
            lock.unlock();
        }
    }

    private void work() {
        try {
            while (true) {
                Runnable task = next();
                if (task == null) {
                    return;
                }
                try {
                    task.run();
                } catch (RuntimeException | Error e) {
                    LOG.error("a task on the vertex threads failed", e);
                }
            }
        } finally {
            lock.lock();
            try {
                running--;
                finished.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    /** The next task (control work first, then the shuffles' turns); null once shut down with nothing queued. */
    private Runnable next() {
        lock.lock();
        try {
            while (control.isEmpty() && queuedRuns == 0) {
                if (shutdown) {
                    return null;
                }
                try {
                    work.await();
                } catch (InterruptedException e) {
                    if (shutdown) {
                        return null;
                    }
                }
            }
            // A task that left its thread interrupted (a user's combiner that restored the flag) must not hand the
            // interrupt to the next: a FileChannel read under it closes a map output vertices share. That holds while
            // shutdown() drains the queues too; after shutdownNow() they are empty, and the worker stops above.
            Thread.interrupted();
            Runnable task = control.pollFirst();
            return task != null ? task : nextRun();
        } finally {
            lock.unlock();
        }
    }

    /** The next vertex run: the next shuffle's furthest behind, or every {@value #OLDEST_EVERY}th time the oldest. */
    private VertexRun nextRun() {
        String shuffle;
        Queued chosen;
        if (++dispatchedRuns % OLDEST_EVERY == 0) {
            chosen = null;
            for (PriorityQueue<Queued> runs : waiting.values()) {
                for (Queued q : runs) {
                    if (chosen == null || q.seq() < chosen.seq()) {
                        chosen = q;
                    }
                }
            }
            shuffle = chosen.run().shuffle();
            waiting.get(shuffle).remove(chosen);
            turns.remove(shuffle);
        } else {
            shuffle = turns.pollFirst();
            chosen = waiting.get(shuffle).poll();
        }
        queuedRuns--;
        if (waiting.get(shuffle).isEmpty()) {
            waiting.remove(shuffle);
        } else {
            turns.addLast(shuffle);
        }
        return chosen.run();
    }

    @Override
    public void shutdown() {
        lock.lock();
        try {
            shutdown = true;
            work.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public List<Runnable> shutdownNow() {
        List<Runnable> pending = new ArrayList<>();
        lock.lock();
        try {
            shutdown = true;
            pending.addAll(control);
            control.clear();
            waiting.values().forEach(runs -> runs.forEach(q -> pending.add(q.run())));
            waiting.clear();
            turns.clear();
            queuedRuns = 0;
            work.signalAll();
        } finally {
            lock.unlock();
        }
        threads.forEach(Thread::interrupt);
        return pending;
    }

    @Override
    public boolean isShutdown() {
        lock.lock();
        try {
            return shutdown;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean isTerminated() {
        lock.lock();
        try {
            return shutdown && running == 0;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        lock.lock();
        try {
            while (!(shutdown && running == 0)) {
                if (nanos <= 0) {
                    return false;
                }
                nanos = finished.awaitNanos(nanos);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }
}
