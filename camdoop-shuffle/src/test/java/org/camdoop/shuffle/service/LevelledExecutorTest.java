package org.camdoop.shuffle.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
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
