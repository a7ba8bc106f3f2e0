package org.camdoop.torus.transport.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Heartbeat, backoff and token bucket logic on a hand-driven clock: no sleeping. */
class LinkLogicTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    @Test
    void heartbeatSentWhenQuietAndLinkDeclaredDownAfterTimeout() {
        HeartbeatMonitor m = new HeartbeatMonitor(now::get, 100, 350);
        assertEquals(HeartbeatMonitor.Action.NONE, m.tick());
        now.addAndGet(100);
        assertEquals(HeartbeatMonitor.Action.SEND_HEARTBEAT, m.tick());
        assertEquals(HeartbeatMonitor.Action.NONE, m.tick(), "one heartbeat per interval");
        now.addAndGet(200);
        m.frameReceived();
        now.addAndGet(349);
        m.frameSent();
        assertEquals(HeartbeatMonitor.Action.NONE, m.tick());
        now.addAndGet(1);
        assertEquals(HeartbeatMonitor.Action.DECLARE_DOWN, m.tick());
    }

    @Test
    void backoffDoublesToItsCapAndResets() {
        ReconnectBackoff b = new ReconnectBackoff(100, 700);
        assertEquals(100, b.nextDelayNanos());
        assertEquals(200, b.nextDelayNanos());
        assertEquals(400, b.nextDelayNanos());
        assertEquals(700, b.nextDelayNanos());
        assertEquals(700, b.nextDelayNanos());
        b.reset();
        assertEquals(100, b.nextDelayNanos());
    }

    @Test
    void tokenBucketHoldsTheLongRunRate() {
        // 1 GB/s = 1 byte per ns, burst 1000 bytes.
        TokenBucket t = new TokenBucket(now::get, 1_000_000_000L, 1000);
        assertTrue(t.mayProceed());
        t.consume(3000);
        assertFalse(t.mayProceed());
        assertEquals(2000, t.nanosUntilReady());
        now.addAndGet(1999);
        assertFalse(t.mayProceed());
        now.addAndGet(1);
        assertTrue(t.mayProceed());
        now.addAndGet(1_000_000);
        t.consume(1000);
        assertTrue(t.mayProceed(), "refill is capped at the burst, which one frame may spend");
        t.consume(1);
        assertFalse(t.mayProceed());
    }
}
