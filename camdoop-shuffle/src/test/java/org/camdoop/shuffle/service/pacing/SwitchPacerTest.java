package org.camdoop.shuffle.service.pacing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.camdoop.shuffle.protocol.EndOfStream;
import org.camdoop.shuffle.service.plan.StreamEdge;
import org.camdoop.shuffle.service.vertex.VertexOutput;
import org.junit.jupiter.api.Test;

/** The switch pacer's arithmetic on an injected clock: no sleeping, no real time. */
class SwitchPacerTest {

    private static final long RATE = 1_000_000; // bytes per second: 1 byte per microsecond
    private static final long BURST = 1_000;

    private long now;
    private final List<Long> wakeDelays = new ArrayList<>();
    private final List<Runnable> wakes = new ArrayList<>();
    private final SwitchPacer pacer = new SwitchPacer(4, RATE, BURST, () -> now, (nanos, wake) -> {
        wakeDelays.add(nanos);
        wakes.add(wake);
    });

    /** An output with credit switched on and off by the test. */
    private static final class FakeOutput implements VertexOutput {
        boolean credit = true;
        final List<Integer> accepted = new ArrayList<>();
        Runnable pendingWake;

        @Override
        public boolean offer(byte[] chunk, int length) {
            if (credit) {
                accepted.add(length);
            }
            return credit;
        }

        @Override
        public void whenWritable(Runnable wake) {
            pendingWake = wake;
        }

        @Override
        public void end(EndOfStream end) {
        }

        @Override
        public void fail(String reason) {
        }
    }

    @Test
    void aBurstGoesAtOnceThenTheSenderWaitsForItsDebtToClear() {
        assertEquals(0, pacer.tryTake(0, 1, 1_500)); // bucket full: allowed, goes 500 bytes into debt
        assertEquals(500_000, pacer.tryTake(0, 1, 100)); // 500 bytes at 1 B/us
        now += 499_000;
        assertEquals(1_000, pacer.tryTake(0, 1, 100));
        now += 1_000;
        assertEquals(0, pacer.tryTake(0, 1, 100));
    }

    @Test
    void theReceiversDownlinkIsSharedByAllItsSenders() {
        assertEquals(0, pacer.tryTake(0, 3, 2_000)); // server 3's downlink 1000 bytes in debt
        long wait = pacer.tryTake(1, 3, 10);
        assertEquals(1_000_000, wait, "another sender to the same receiver waits for the shared downlink");
        assertEquals(0, pacer.tryTake(1, 2, 10), "the same sender to another receiver is not held back");
    }

    @Test
    void theSendersUplinkIsSharedByAllItsStreams() {
        assertEquals(0, pacer.tryTake(2, 0, 3_000));
        assertEquals(2_000_000, pacer.tryTake(2, 1, 10));
        assertEquals(0, pacer.tryTake(3, 1, 10), "another sender to the same receiver is not held back");
    }

    @Test
    void aRefusedTakeChargesNothing() {
        assertEquals(0, pacer.tryTake(0, 1, 1_000)); // exactly empties both buckets
        assertEquals(0, pacer.tryTake(0, 1, 1_000)); // not in debt yet: allowed, 1000 in debt
        for (int i = 0; i < 5; i++) {
            assertEquals(1_000_000, pacer.tryTake(0, 1, 50_000));
        }
    }

    @Test
    void theLongRunRateIsTheLinkRate() {
        long sent = 0;
        int chunk = 700;
        while (now < 1_000_000_000L) {
            long wait = pacer.tryTake(0, 1, chunk);
            if (wait == 0) {
                sent += chunk;
            } else {
                now += wait;
            }
        }
        assertTrue(Math.abs(sent - RATE) <= BURST + chunk, "sent " + sent + " bytes in one simulated second");
    }

    @Test
    void localStreamsAreNotPaced() {
        FakeOutput out = new FakeOutput();
        assertSame(out, pacer.pace(new StreamEdge(0, 5, 2, 2), out));
    }

    @Test
    void anOutputShortOfTokensSchedulesItsWakeForWhenTheyArrive() {
        FakeOutput real = new FakeOutput();
        VertexOutput paced = pacer.pace(new StreamEdge(0, 5, 0, 1), real);
        assertTrue(paced.offer(new byte[1_200], 1_200));
        assertFalse(paced.offer(new byte[100], 100));
        paced.whenWritable(() -> { });
        assertEquals(List.of(200_000L), wakeDelays, "wakes when the 200-byte debt is paid");
        assertEquals(null, real.pendingWake, "the real output was not asked");
        now += 200_000;
        assertTrue(paced.offer(new byte[100], 100));
        assertEquals(List.of(1_200, 100), real.accepted);
    }

    @Test
    void aChunkRefusedForCreditIsChargedOnlyOnce() {
        FakeOutput real = new FakeOutput();
        VertexOutput paced = pacer.pace(new StreamEdge(0, 5, 0, 1), real);
        real.credit = false;
        assertFalse(paced.offer(new byte[800], 800)); // charged 800, refused by the real output
        Runnable wake = () -> { };
        paced.whenWritable(wake);
        assertSame(wake, real.pendingWake, "waits for credit, not for tokens");
        assertTrue(wakeDelays.isEmpty());
        real.credit = true;
        assertTrue(paced.offer(new byte[800], 800)); // not charged again
        // Charged twice, the buckets would be 600 bytes in debt and this would wait.
        assertEquals(0, pacer.tryTake(0, 1, 200), "only 800 of the 1000-byte burst were taken");
    }
}
