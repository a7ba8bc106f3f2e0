package org.camdoop.shuffle.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntPredicate;
import java.util.function.Supplier;
import org.camdoop.shuffle.aggregation.ChunkQueueRun;
import org.camdoop.shuffle.daemon.EmbeddedTorus;
import org.camdoop.shuffle.protocol.StreamItem;
import org.camdoop.torus.transport.stream.BufferBudget;

/**
 * Waits of the torus tests on events (futures the daemons complete, root streams' own wake-ups), never a poll. Each has
 * a bound; past it the test fails naming what did not happen.
 */
final class TorusWaits {

    /** What a drained root stream delivered: its records, and its last item (End or Failed). */
    record Drained(StreamItem last, ChunkQueueRun records) {
    }

    private TorusWaits() {
    }

    /** Waits for {@code event}; fails naming {@code what} (asked only then) if it has not happened within the bound. */
    static <T> T await(CompletableFuture<T> event, Duration bound, Supplier<String> what)
            throws InterruptedException, ExecutionException {
        try {
            return event.get(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return fail("after " + bound.toSeconds() + " s: " + what.get());
        }
    }

    /** Waits until no shuffle runs on the servers {@code which} selects. */
    static void idle(EmbeddedTorus torus, IntPredicate which, Duration bound) throws Exception {
        List<CompletableFuture<Void>> idle = new ArrayList<>();
        for (int s = 0; s < torus.shape().size(); s++) {
            if (which.test(s)) {
                idle.add(torus.service(s).whenIdle());
            }
        }
        await(CompletableFuture.allOf(idle.toArray(CompletableFuture[]::new)), bound,
                () -> "shuffles still running on " + servers(torus, which, s -> torus.service(s).runningShuffles()));
    }

    /** Waits until no START is parked on any server (each released, cancelled or timed out). */
    static void noParkedStarts(EmbeddedTorus torus, Duration bound) throws Exception {
        List<CompletableFuture<Void>> empty = new ArrayList<>();
        for (int s = 0; s < torus.shape().size(); s++) {
            empty.add(torus.service(s).whenNoParkedStarts());
        }
        await(CompletableFuture.allOf(empty.toArray(CompletableFuture[]::new)), bound,
                () -> "starts still parked on " + servers(torus, s -> true, s -> torus.service(s).parkedStarts()));
    }

    /**
     * Waits until no stream is open on the servers {@code which} selects, then checks that their budgets got every
     * buffer back.
     */
    static void noOpenStreams(EmbeddedTorus torus, IntPredicate which, Duration bound) throws Exception {
        List<CompletableFuture<Void>> closed = new ArrayList<>();
        for (int s = 0; s < torus.shape().size(); s++) {
            if (which.test(s)) {
                closed.add(torus.node(s).budget().whenNoOpenStreams());
            }
        }
        await(CompletableFuture.allOf(closed.toArray(CompletableFuture[]::new)), bound, () -> {
            List<String> open = new ArrayList<>();
            for (int s = 0; s < torus.shape().size(); s++) {
                for (String stream : which.test(s) ? torus.node(s).openStreams() : List.<String>of()) {
                    open.add(torus.shape().coord(s) + ": " + stream);
                }
            }
            return "streams still holding buffers: " + open.subList(0, Math.min(10, open.size()))
                    + (open.size() > 10 ? " and " + (open.size() - 10) + " more" : "");
        });
        for (int s = 0; s < torus.shape().size(); s++) {
            BufferBudget b = torus.node(s).budget();
            if (which.test(s)) {
                assertEquals(0, b.reservedBuffers(), "buffers reserved on " + torus.shape().coord(s)
                        + " with no stream open");
            }
        }
    }

    /**
     * Drains every root at once, each on its own thread blocked in {@link RootStream#next} (so a slow consumer of one
     * holds none of the others back), until each ends or fails.
     */
    static List<Drained> drainAll(List<RootStream> roots, Duration bound) throws Exception {
        ExecutorService readers = Executors.newFixedThreadPool(roots.size(), r -> {
            Thread t = new Thread(r, "root-reader");
            t.setDaemon(true);
            return t;
        });
        try {
            long deadline = System.nanoTime() + bound.toNanos();
            List<CompletableFuture<Drained>> drains = new ArrayList<>();
            for (int i = 0; i < roots.size(); i++) {
                RootStream root = roots.get(i);
                ChunkQueueRun records = new ChunkQueueRun("root " + i);
                drains.add(CompletableFuture.supplyAsync(() -> drain(root, records, deadline), readers));
            }
            await(CompletableFuture.allOf(drains.toArray(CompletableFuture[]::new)), bound, () -> {
                List<Integer> running = new ArrayList<>();
                for (int i = 0; i < drains.size(); i++) {
                    if (!drains.get(i).isDone()) {
                        running.add(i);
                    }
                }
                return "roots " + running + " of " + roots.size() + " still running";
            });
            return drains.stream().map(CompletableFuture::join).toList();
        } finally {
            readers.shutdownNow();
        }
    }

    private static Drained drain(RootStream root, ChunkQueueRun records, long deadline) {
        try {
            while (true) {
                StreamItem n = root.next(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
                if (n instanceof StreamItem.Chunk c) {
                    records.offer(c.bytes(), c.length());
                } else if (n instanceof StreamItem.Timeout) {
                    // The bound passed: drainAll reports this root as still running.
                    return new Drained(n, records);
                } else {
                    records.finish();
                    return new Drained(n, records);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while draining a root", e);
        }
    }

    private static List<String> servers(EmbeddedTorus torus, IntPredicate which, java.util.function.IntUnaryOperator n) {
        List<String> out = new ArrayList<>();
        for (int s = 0; s < torus.shape().size(); s++) {
            if (which.test(s) && n.applyAsInt(s) > 0) {
                out.add(torus.shape().coord(s) + " (" + n.applyAsInt(s) + ")");
            }
        }
        return out;
    }
}
