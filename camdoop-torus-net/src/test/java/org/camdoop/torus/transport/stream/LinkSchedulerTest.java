package org.camdoop.torus.transport.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.Channel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LinkSchedulerTest {

    /** A source that always has a frame of {@code bytes}. */
    static final class Backlogged extends ScheduledSource {
        final long job;
        final int bytes;
        boolean urgent;
        long served;

        Backlogged(long job, int bytes) {
            this.job = job;
            this.bytes = bytes;
        }

        public long job() {
            return job;
        }

        public boolean urgent() {
            return urgent;
        }

        public int nextFrameBytes() {
            return bytes;
        }

        public int writeNext(Channel ch, int self) {
            served += bytes;
            return bytes;
        }
    }

    private static void serve(LinkScheduler s, int picks) {
        for (int i = 0; i < picks; i++) {
            ScheduledSource src = s.next();
            src.writeNext(null, 0);
            s.enqueue(src);
        }
    }

    @Test
    void jobsShareByWeightAndStreamsOfAJobShareEqually() {
        Map<Long, Integer> weights = new HashMap<>(Map.of(1L, 1, 2L, 1, 3L, 2));
        LinkScheduler s = new LinkScheduler(64 * 1024, j -> weights.get(j));
        List<Backlogged> all = new ArrayList<>();
        for (long job = 1; job <= 3; job++) {
            for (int i = 0; i < 12; i++) {
                // Frame sizes differ between streams: shares are in bytes, not frames.
                Backlogged b = new Backlogged(job, 16 * 1024 + 1024 * i);
                all.add(b);
                s.enqueue(b);
            }
        }
        serve(s, 40_000);
        double total = all.stream().mapToLong(b -> b.served).sum();
        double[] share = new double[4];
        for (Backlogged b : all) {
            share[(int) b.job] += b.served / total;
        }
        assertEquals(0.25, share[1], 0.025);
        assertEquals(0.25, share[2], 0.025);
        assertEquals(0.50, share[3], 0.05);
        // Within a job: round-robin by frame, so frame counts are equal.
        for (Backlogged b : all) {
            Backlogged first = all.get((int) (b.job - 1) * 12);
            long framesB = b.served / b.bytes;
            long framesFirst = first.served / first.bytes;
            assertTrue(Math.abs(framesB - framesFirst) <= 1, "round-robin within job " + b.job);
        }
    }

    @Test
    void urgentStreamsAreServedFirst() {
        LinkScheduler s = new LinkScheduler(1000, j -> 1);
        Backlogged a = new Backlogged(1, 100);
        Backlogged b = new Backlogged(2, 100);
        Backlogged u = new Backlogged(3, 100);
        u.urgent = true;
        s.enqueue(a);
        s.enqueue(b);
        s.enqueue(u);
        for (int i = 0; i < 50; i++) {
            ScheduledSource next = s.next();
            assertSame(u, next);
            s.enqueue(next);
        }
        s.remove(u);
        u.urgent = false;
        s.enqueue(u);
        serve(s, 300);
        assertTrue(a.served > 0 && b.served > 0, "normal sharing once the urgency is withdrawn");
    }

    @Test
    void sourcesWithNothingToSendAreDropped() {
        LinkScheduler s = new LinkScheduler(1000, j -> 1);
        Backlogged empty = new Backlogged(1, 0);
        s.enqueue(empty);
        assertEquals(null, s.next());
        assertTrue(s.isEmpty());
    }
}
