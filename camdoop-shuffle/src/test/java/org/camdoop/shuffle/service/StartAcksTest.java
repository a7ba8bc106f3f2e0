package org.camdoop.shuffle.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.trees.TreeChoice;
import org.junit.jupiter.api.Test;

/** START sent, sent again with back-off to the daemons that have not answered, and the give-up, on a test clock. */
class StartAcksTest {

    private static final long WAIT_MS = 10_000;

    private final ManualTimer timer = new ManualTimer();
    private final List<String> events = new ArrayList<>();
    /** What the sender does beside logging the send (the daemon's acknowledgement coming back at once, say). */
    private java.util.function.BiConsumer<ShuffleSpec, Integer> onSend = (spec, server) -> { };
    private final StartAcks acks = new StartAcks(timer, timer, WAIT_MS, timer::nanos,
            (spec, server) -> {
                events.add(timer.millis() + " send p" + spec.partition() + " to " + server);
                onSend.accept(spec, server);
            },
            (spec, silent) -> events.add(
                    timer.millis() + " give up p" + spec.partition() + " on " + new TreeSet<>(silent)));

    static ShuffleSpec spec(int partition) {
        return new ShuffleSpec(7L, "job_1700000000000_0001", partition, 0, new Coord(0, 0, 0), ShuffleMode.CAMDOOP,
                TreeChoice.SIX, new TreeSet<>());
    }

    @Test
    void resendsToTheSilentWithBackOffThenGivesUpNamingThem() {
        acks.send(spec(3), new TreeSet<>(Set.of(1, 2, 3)));
        acks.acknowledged(spec(3).streamKey(), 3, 1);
        timer.advance(999);
        assertEquals(List.of("0 send p3 to 1", "0 send p3 to 2", "0 send p3 to 3"), events);
        events.clear();
        timer.advance(1);
        assertEquals(List.of("1000 send p3 to 2", "1000 send p3 to 3"), events);
        acks.acknowledged(spec(3).streamKey(), 3, 2);
        timer.advance(20_000);
        // Intervals double (1 s, 2 s, 4 s, 8 s): the tick at 15 s is past the 10 s wait, so it gives up instead.
        assertEquals(List.of("1000 send p3 to 2", "1000 send p3 to 3", "3000 send p3 to 3",
                "7000 send p3 to 3", "15000 give up p3 on [3]"), events);
        assertEquals(0, acks.unacknowledged());
        assertEquals(0, timer.pending());
    }

    @Test
    void anAcknowledgementThatComesBackBeforeTheLastStartLeftCounts() {
        // A neighbour answers within microseconds, while the root still sends to the far side of the torus.
        onSend = (spec, server) -> acks.acknowledged(spec.streamKey(), spec.partition(), server);
        acks.send(spec(2), new TreeSet<>(Set.of(1, 2, 3)));
        assertEquals(0, acks.unacknowledged());
        assertEquals(0, timer.pending(), "the retry timer is cancelled");
        timer.advance(60_000);
        assertEquals(List.of("0 send p2 to 1", "0 send p2 to 2", "0 send p2 to 3"), events);
    }

    @Test
    void aStartThatCannotBeSentIsNotExpectedAndTheCallerLearnsWhy() {
        onSend = (spec, server) -> {
            throw new IllegalArgumentException("frame too large");
        };
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> acks.send(spec(4), new TreeSet<>(Set.of(1, 2))));
        assertEquals("frame too large", e.getMessage());
        assertEquals(0, acks.unacknowledged());
        assertEquals(0, timer.pending(), "nothing to send again");
    }

    @Test
    void aResendThatFailsStillEndsInTheGiveUp() {
        acks.send(spec(5), new TreeSet<>(Set.of(1, 2)));
        events.clear();
        onSend = (spec, server) -> {
            if (server == 1) {
                throw new IllegalStateException("link gone");
            }
        };
        timer.advance(60_000);
        assertEquals(List.of("1000 send p5 to 1", "1000 send p5 to 2", "3000 send p5 to 1", "3000 send p5 to 2",
                "7000 send p5 to 1", "7000 send p5 to 2", "15000 give up p5 on [1, 2]"), events);
        assertEquals(0, acks.unacknowledged());
    }

    @Test
    void everyAcknowledgementInStopsTheRetries() {
        acks.send(spec(1), Set.of(4, 5));
        events.clear();
        acks.acknowledged(spec(1).streamKey(), 1, 5);
        acks.acknowledged(spec(1).streamKey(), 1, 4);
        assertEquals(0, acks.unacknowledged());
        assertEquals(0, timer.pending(), "the retry timer is cancelled");
        timer.advance(60_000);
        assertEquals(List.of(), events, "nothing sent again");
    }

    @Test
    void aForgottenShuffleIsNeitherResentNorGivenUp() {
        acks.send(spec(1), Set.of(4));
        acks.send(spec(2), Set.of(4));
        acks.forget(spec(1).streamKey(), 1);
        assertEquals(1, acks.unacknowledged());
        timer.advance(60_000);
        assertEquals(List.of("0 send p1 to 4", "0 send p2 to 4", "1000 send p2 to 4", "3000 send p2 to 4",
                "7000 send p2 to 4", "15000 give up p2 on [4]"), events);
    }

    @Test
    void anAcknowledgementOfAnUnknownShuffleIsIgnored() {
        acks.acknowledged(99L, 0, 1);
        acks.send(spec(0), Set.of());
        assertEquals(0, acks.unacknowledged());
        assertEquals(0, timer.pending());
    }
}
