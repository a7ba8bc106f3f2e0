package org.camdoop.shuffle.service;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A timer driven by the test: tasks run only when {@link #advance} moves its clock past their time, on the caller's
 * thread, in time order. {@link #nanos()} is the clock to inject where the code under test reads one. Single test
 * thread.
 */
final class ManualTimer extends AbstractExecutorService implements ScheduledExecutorService {

    private final class Task implements ScheduledFuture<Object> {
        long at;
        long seq;
        final Runnable body;
        /** Nanoseconds between runs of a periodic task; 0 for a one-shot. */
        final long period;
        boolean cancelled;
        boolean done;

        Task(long at, long seq, Runnable body, long period) {
            this.at = at;
            this.seq = seq;
            this.body = body;
            this.period = period;
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(at - now, TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed o) {
            return Long.compare(getDelay(TimeUnit.NANOSECONDS), o.getDelay(TimeUnit.NANOSECONDS));
        }

        @Override
        public boolean cancel(boolean mayInterrupt) {
            boolean was = !cancelled && !done;
            cancelled = true;
            tasks.remove(this);
            return was;
        }

        @Override
        public boolean isCancelled() {
            return cancelled;
        }

        @Override
        public boolean isDone() {
            return done || cancelled;
        }

        @Override
        public Object get() {
            return null;
        }

        @Override
        public Object get(long timeout, TimeUnit unit) {
            return null;
        }
    }

    private final List<Task> tasks = new ArrayList<>();
    private long now;
    private long seq;

    long nanos() {
        return now;
    }

    long millis() {
        return TimeUnit.NANOSECONDS.toMillis(now);
    }

    /** Tasks scheduled and neither run nor cancelled. */
    int pending() {
        return tasks.size();
    }

    /** Moves the clock forward by {@code ms}, running every task that falls due, including ones they schedule. */
    void advance(long ms) {
        long until = now + TimeUnit.MILLISECONDS.toNanos(ms);
        while (true) {
            Task next = tasks.stream().min(Comparator.<Task>comparingLong(t -> t.at).thenComparingLong(t -> t.seq))
                    .orElse(null);
            if (next == null || next.at > until) {
                break;
            }
            tasks.remove(next);
            now = Math.max(now, next.at);
            if (next.period == 0) {
                next.done = true;
            } else {
                next.at += next.period;
                next.seq = seq++;
                tasks.add(next); // before the run, so the run can cancel it
            }
            next.body.run();
        }
        now = until;
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        Task t = new Task(now + unit.toNanos(Math.max(0, delay)), seq++, command, 0);
        tasks.add(t);
        return t;
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        throw new UnsupportedOperationException();
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        if (period <= 0) {
            throw new IllegalArgumentException("period " + period);
        }
        Task t = new Task(now + unit.toNanos(Math.max(0, initialDelay)), seq++, command, unit.toNanos(period));
        tasks.add(t);
        return t;
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void execute(Runnable command) {
        command.run();
    }

    @Override
    public void shutdown() {
    }

    @Override
    public List<Runnable> shutdownNow() {
        return List.of();
    }

    @Override
    public boolean isShutdown() {
        return false;
    }

    @Override
    public boolean isTerminated() {
        return false;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return true;
    }
}
