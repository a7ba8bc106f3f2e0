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
import org.camdoop.shuffle.service.vertex.Levelled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class LevelledExecutorTest {

    private static Levelled at(int level, Runnable r) {
        return new Levelled() {
            @Override
            public int level() {
                return level;
            }

            @Override
            public void run() {
                r.run();
            }
        };
    }

    @Test
    void runsLowerLevelsFirstAndArrivalOrderWithinALevel() throws Exception {
        LevelledExecutor executor = new LevelledExecutor(1, Thread::new);
        CountDownLatch blocker = occupyTheOnlyThread(executor);
        List<String> ran = new CopyOnWriteArrayList<>();
        executor.execute(at(3, () -> ran.add("3")));
        executor.execute(at(1, () -> ran.add("1a")));
        executor.execute(() -> ran.add("control"));
        executor.execute(at(2, () -> ran.add("2")));
        executor.execute(at(1, () -> ran.add("1b")));
        executor.execute(at(99, () -> ran.add("deepest")));
        blocker.countDown();
        executor.shutdown();
        assertTrue(executor.awaitTermination(10, TimeUnit.SECONDS));
        assertEquals(List.of("control", "1a", "1b", "2", "3", "deepest"), ran);
    }

    @Test
    void shutdownRunsWhatIsQueuedShutdownNowReturnsItAndLaterTasksAreRefused() throws Exception {
        LevelledExecutor executor = new LevelledExecutor(1, Thread::new);
        occupyTheOnlyThread(executor); // until shutdownNow interrupts it
        Runnable queued = at(2, () -> { });
        executor.execute(queued);
        assertEquals(List.of(queued), executor.shutdownNow(), "the queued task, not run");
        assertThrows(RejectedExecutionException.class, () -> executor.execute(() -> { }));
        assertTrue(executor.awaitTermination(10, TimeUnit.SECONDS), "the interrupted worker ended");
        assertTrue(executor.isTerminated());
    }

    /**
     * A level-1 task that reschedules itself for ever (a vertex woken without progress, a bug) must not hang the
     * deeper levels: strict priority would never run the level-5 task; every sixteenth turn goes to the deepest level.
     */
    @Test
    void aTaskThatKeepsReschedulingItselfDoesNotStarveDeeperLevels() throws Exception {
        LevelledExecutor executor = new LevelledExecutor(1, Thread::new);
        AtomicBoolean spin = new AtomicBoolean(true);
        AtomicLong spins = new AtomicLong();
        Runnable[] spinner = new Runnable[1];
        spinner[0] = at(1, () -> {
            spins.incrementAndGet();
            if (spin.get()) {
                executor.execute(spinner[0]);
            }
        });
        CountDownLatch deepRan = new CountDownLatch(1);
        long[] spinsBefore = new long[1];
        CountDownLatch blocker = occupyTheOnlyThread(executor);
        executor.execute(spinner[0]);
        executor.execute(at(5, () -> {
            spinsBefore[0] = spins.get();
            deepRan.countDown();
        }));
        blocker.countDown();
        assertTrue(deepRan.await(10, TimeUnit.SECONDS), "the level-5 task never ran (" + spins.get() + " spins)");
        spin.set(false);
        executor.shutdown();
        assertTrue(executor.awaitTermination(10, TimeUnit.SECONDS));
        assertTrue(spinsBefore[0] < LevelledExecutor.DEEPEST_EVERY, "it waited " + spinsBefore[0] + " spins");
    }

    @Test
    void aFailingTaskDoesNotStopItsThread() throws Exception {
        LevelledExecutor executor = new LevelledExecutor(1, Thread::new);
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
    private static CountDownLatch occupyTheOnlyThread(LevelledExecutor executor) throws InterruptedException {
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
