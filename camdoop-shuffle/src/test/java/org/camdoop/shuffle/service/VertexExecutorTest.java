package org.camdoop.shuffle.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.camdoop.shuffle.service.vertex.VertexRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class VertexExecutorTest {

    private static VertexRun run(String shuffle, long frontier, int depth, Runnable r) {
        return VertexRun.of(shuffle, depth, () -> frontier, r);
    }

    /** One shuffle: control work first, then the furthest behind (unsigned), then nearer the root, then arrival. */
    @Test
    void runsControlWorkFirstThenTheVertexFurthestBehind() throws Exception {
        VertexExecutor executor = new VertexExecutor(1, Thread::new);
        CountDownLatch blocker = occupyTheOnlyThread(executor);
        List<String> ran = new CopyOnWriteArrayList<>();
        executor.execute(run("a", 0x8000_0000_0000_0000L, 1, () -> ran.add("high bit")));
        executor.execute(run("a", 7, 3, () -> ran.add("7 deep")));
        executor.execute(run("a", 7, 1, () -> ran.add("7 near")));
        executor.execute(() -> ran.add("control"));
        executor.execute(run("a", 7, 1, () -> ran.add("7 near, later")));
        executor.execute(run("a", 0, 5, () -> ran.add("not started")));
        executor.execute(run("a", 0x7FFF_FFFF_FFFF_FFFFL, 0, () -> ran.add("below the high bit")));
        blocker.countDown();
        executor.shutdown();
        assertTrue(executor.awaitTermination(10, TimeUnit.SECONDS));
        assertEquals(List.of("control", "not started", "7 near", "7 near, later", "7 deep", "below the high bit",
                "high bit"), ran);
    }

    /**
     * Frontiers of different shuffles are not compared (other jobs' keys, or another range of a range-partitioned
     * job's: "b" is far ahead of "a" in the key space): the shuffles with runs waiting take one turn each.
     */
    @Test
    void shufflesTakeTurns() throws Exception {
        VertexExecutor executor = new VertexExecutor(1, Thread::new);
        CountDownLatch blocker = occupyTheOnlyThread(executor);
        List<String> ran = new CopyOnWriteArrayList<>();
        executor.execute(run("a", 1, 1, () -> ran.add("a1")));
        executor.execute(run("a", 2, 1, () -> ran.add("a2")));
        executor.execute(run("a", 3, 1, () -> ran.add("a3")));
        executor.execute(run("b", -1, 1, () -> ran.add("b, far ahead")));
        executor.execute(run("c", 5, 1, () -> ran.add("c")));
        blocker.countDown();
        executor.shutdown();
        assertTrue(executor.awaitTermination(10, TimeUnit.SECONDS));
        assertEquals(List.of("a1", "b, far ahead", "c", "a2", "a3"), ran);
    }

    @Test
    void shutdownRunsWhatIsQueuedShutdownNowReturnsItAndLaterTasksAreRefused() throws Exception {
        VertexExecutor executor = new VertexExecutor(1, Thread::new);
        occupyTheOnlyThread(executor); // until shutdownNow interrupts it
        Runnable queued = run("a", 0, 2, () -> { });
        executor.execute(queued);
        assertEquals(List.of(queued), executor.shutdownNow(), "the queued task, not run");
        assertThrows(RejectedExecutionException.class, () -> executor.execute(() -> { }));
        assertTrue(executor.awaitTermination(10, TimeUnit.SECONDS), "the interrupted worker ended");
        assertTrue(executor.isTerminated());
    }

    /**
     * A run that reschedules itself for ever at the lowest frontier (a vertex woken without progress, a bug) must not
     * hang the rest of its job: strict order would never run the other; every sixteenth run is the oldest waiting.
     */
    @Test
    void aRunThatKeepsReschedulingItselfDoesNotStarveItsJob() throws Exception {
        VertexExecutor executor = new VertexExecutor(1, Thread::new);
        AtomicBoolean spin = new AtomicBoolean(true);
        AtomicLong spins = new AtomicLong();
        Runnable[] spinner = new Runnable[1];
        spinner[0] = run("a", 0, 0, () -> {
            spins.incrementAndGet();
            if (spin.get()) {
                executor.execute(spinner[0]);
            }
        });
        CountDownLatch aheadRan = new CountDownLatch(1);
        long[] spinsBefore = new long[1];
        CountDownLatch blocker = occupyTheOnlyThread(executor);
        executor.execute(spinner[0]);
        executor.execute(run("a", 99, 5, () -> {
            spinsBefore[0] = spins.get();
            aheadRan.countDown();
        }));
        blocker.countDown();
        try {
            assertTrue(aheadRan.await(10, TimeUnit.SECONDS), "the other run never ran (" + spins.get() + " spins)");
        } finally {
            spin.set(false);
        }
        executor.shutdown();
        assertTrue(executor.awaitTermination(10, TimeUnit.SECONDS));
        assertTrue(spinsBefore[0] < VertexExecutor.OLDEST_EVERY, "it waited " + spinsBefore[0] + " spins");
    }

    /**
     * The sixteenth run is the oldest waiting, whatever its frontier, and the turns go on after it: shuffle a's run far
     * ahead (submitted first) goes sixteenth, between a's runs at frontier 0, and b, emptied by its first turn, is not
     * served again.
     */
    @Test
    void everySixteenthRunIsTheOldestAndTheTurnsGoOn() throws Exception {
        VertexExecutor executor = new VertexExecutor(1, Thread::new);
        CountDownLatch blocker = occupyTheOnlyThread(executor);
        List<String> ran = new CopyOnWriteArrayList<>();
        executor.execute(run("a", 99, 1, () -> ran.add("a far ahead")));
        List<String> expected = new java.util.ArrayList<>();
        for (int i = 1; i <= 16; i++) {
            String name = "a" + i;
            executor.execute(run("a", 0, 1, () -> ran.add(name)));
        }
        executor.execute(run("b", 0, 1, () -> ran.add("b")));
        expected.add("a1");
        expected.add("b");
        for (int i = 2; i <= 14; i++) {
            expected.add("a" + i);
        }
        expected.add("a far ahead");
        expected.add("a15");
        expected.add("a16");
        blocker.countDown();
        executor.shutdown();
        assertTrue(executor.awaitTermination(10, TimeUnit.SECONDS));
        assertEquals(expected, ran);
    }

    @Test
    void aFailingTaskDoesNotStopItsThread() throws Exception {
        VertexExecutor executor = new VertexExecutor(1, Thread::new);
        CountDownLatch after = new CountDownLatch(1);
        executor.execute(() -> {
            throw new IllegalStateException("a task failed (expected by this test)");
        });
        executor.execute(after::countDown);
        assertTrue(after.await(10, TimeUnit.SECONDS));
        executor.shutdown();
        assertTrue(executor.awaitTermination(10, TimeUnit.SECONDS));
    }

    /** Runs a task that holds the executor's one thread until the returned latch opens; returns once it runs. */
    private static CountDownLatch occupyTheOnlyThread(VertexExecutor executor) throws InterruptedException {
        CountDownLatch blocker = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        executor.execute(() -> {
            started.countDown();
            try {
                blocker.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        started.await();
        return blocker;
    }
}
