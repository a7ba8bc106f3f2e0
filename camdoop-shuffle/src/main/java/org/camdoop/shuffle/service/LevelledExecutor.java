package org.camdoop.shuffle.service;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.camdoop.shuffle.service.vertex.Levelled;

/**
 * The vertex threads: a fixed set of threads running tasks lowest level first, in arrival order within a level.
 * Control work (service messages, a shuffle's set-up) is level 0; a vertex's run is its distance from the root plus one
 * ({@link Levelled}), so a daemon serves the vertices nearest the reducer first. With one FIFO the lower vertices,
 * always runnable while their windows have room, took the CPU first: a CPU-bound shuffle filled every window of every
 * tree before the root delivered much (at S=1 on a 3x3x3 torus, 9 % of the output had reached the reducer at half
 * the shuffle's time), and a restart threw all of that away. Nearest-first moves data up as soon as it can move.
 *
 * <p>No level starves for long: a vertex has work only when data reached it from below or room opened above, and the
 * windows between them are bounded. Strict priority would still turn a vertex that keeps rescheduling itself without
 * progress (a bug, like the closed-stream wake-up loop of 2026-11-26) into a hang of every deeper level, where a FIFO
 * only wastes CPU; so every {@value #DEEPEST_EVERY}th task comes from the deepest level waiting. The queue is not
 * bounded here: each vertex has at most one run queued ({@code Vertex}'s flag), and the service inbox bounds the
 * messages waiting.
 *
 * <p>Thread-safety: every field is guarded by {@code lock}.
 */
public final class LevelledExecutor extends AbstractExecutorService {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(LevelledExecutor.class);
    /** Queues: level 0 and fifteen tree levels below it (3x3x3 trees are at most 9 deep; deeper share the last). */
    static final int LEVELS = 16;
    /** Every this many tasks, the deepest level waiting goes first, so no level waits for ever. */
    static final int DEEPEST_EVERY = 16;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition work = lock.newCondition();
    private final Condition finished = lock.newCondition();
    private final List<ArrayDeque<Runnable>> queues = new ArrayList<>(LEVELS);
    private final List<Thread> threads = new ArrayList<>();
    private int queued;
    private int running;
    private long dispatched;
    private boolean shutdown;

    /** Starts {@code threads} threads from {@code factory}. */
    public LevelledExecutor(int threads, ThreadFactory factory) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1, got " + threads);
        }
        for (int i = 0; i < LEVELS; i++) {
            queues.add(new ArrayDeque<>());
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
        int level = task instanceof Levelled l ? Math.max(0, Math.min(LEVELS - 1, l.level())) : 0;
        lock.lock();
        try {
            if (shutdown) {
                throw new RejectedExecutionException("the vertex threads are shut down");
            }
            queues.get(level).addLast(task);
            queued++;
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

    /**
     * The next task, lowest level first (deepest first every {@value #DEEPEST_EVERY}th time); null once shut down with
     * nothing queued (or interrupted by shutdownNow).
     */
    private Runnable next() {
        lock.lock();
        try {
            while (queued == 0) {
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
            boolean deepestFirst = ++dispatched % DEEPEST_EVERY == 0;
            for (int i = 0; i < LEVELS; i++) {
                Runnable r = queues.get(deepestFirst ? LEVELS - 1 - i : i).pollFirst();
                if (r != null) {
                    queued--;
                    // A task that left its thread interrupted (a user's combiner that restored the flag) must not
                    // hand the interrupt to the next: a FileChannel read under it closes a map output vertices share.
                    // After shutdownNow the flag is the worker's signal to stop, and stays.
                    if (!shutdown) {
                        Thread.interrupted();
                    }
                    return r;
                }
            }
            throw new IllegalStateException("queued " + queued + " but every queue is empty");
        } finally {
            lock.unlock();
        }
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
            queues.forEach(q -> {
                pending.addAll(q);
                q.clear();
            });
            queued = 0;
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
