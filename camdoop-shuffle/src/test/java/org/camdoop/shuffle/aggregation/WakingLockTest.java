package org.camdoop.shuffle.aggregation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class WakingLockTest {

    private final List<Integer> woken = new CopyOnWriteArrayList<>();
    private final WakingLock lock = new WakingLock(woken::add);

    /** The holder here only reads a figure; before the fix such a holder let go without waking anyone. */
    @Test
    void aConsumerThatFindsTheLockHeldByAnyHolderIsWokenByItsUnlock() throws Exception {
        lock.lock();
        boolean got = CompletableFuture.supplyAsync(() -> lock.tryLockOrRegister(3)).get(10, TimeUnit.SECONDS);
        assertFalse(got);
        assertEquals(List.of(), woken);
        lock.unlock();
        assertEquals(List.of(3), woken);
        // A registration is woken once.
        lock.lock();
        lock.unlock();
        assertEquals(List.of(3), woken);
    }

    @Test
    void aConsumerThatGetsTheLockIsNotWokenLater() {
        assertTrue(lock.tryLockOrRegister(5));
        lock.unlock();
        assertEquals(List.of(), woken);
    }

    @Test
    void aHolderMayAskToBeWokenAtItsOwnUnlock() {
        assertTrue(lock.tryLockOrRegister(0));
        lock.wakeAfterUnlock(0);
        lock.wakeAfterUnlock(31);
        assertEquals(List.of(), woken);
        lock.unlock();
        assertEquals(List.of(0, 31), woken);
    }

    @Test
    void onlyAHolderMayAskForAWakeAndConsumersAreNumberedBelow32() {
        assertEquals("not held by this thread",
                assertThrows(IllegalStateException.class, () -> lock.wakeAfterUnlock(1)).getMessage());
        assertEquals("consumer 32 not in [0, 32)",
                assertThrows(IllegalArgumentException.class, () -> lock.tryLockOrRegister(32)).getMessage());
    }
}
