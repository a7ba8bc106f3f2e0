package org.camdoop.shuffle.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.trees.TreeChoice;
import org.junit.jupiter.api.Test;

/** STARTs parked until their job's spec arrives: release, cancel, the bound, and the time-out on a test clock. */
class ParkedStartsTest {

    private static final long WAIT_MS = 5_000;
    private static final String JOB_A = "job_1700000000000_0001";
    private static final String JOB_B = "job_1700000000000_0002";

    private final ManualTimer timer = new ManualTimer();
    private final List<String> timedOut = new ArrayList<>();
    private final List<String> reminded = new ArrayList<>();
    private final ParkedStarts parked = new ParkedStarts(timer, WAIT_MS,
            spec -> reminded.add(timer.millis() + " " + spec.jobId() + " p" + spec.partition()),
            (spec, waitMs) -> timedOut.add(timer.millis() + " " + spec.jobId() + " p" + spec.partition() + " after "
                    + waitMs));

    private static ShuffleSpec spec(String job, int partition) {
        return new ShuffleSpec(7L, job, partition, 0, new Coord(0, 0, 0), ShuffleMode.CAMDOOP, TreeChoice.SIX,
                new TreeSet<>());
    }

    @Test
    void aStartWhoseSpecNeverComesTimesOutAfterTheWait() {
        assertEquals(ParkedStarts.Parking.PARKED, parked.park(spec(JOB_A, 0), () -> false));
        timer.advance(WAIT_MS - 1);
        assertEquals(List.of(), timedOut);
        assertEquals(1, parked.size());
        timer.advance(1);
        assertEquals(List.of("5000 " + JOB_A + " p0 after 5000"), timedOut);
        assertEquals(0, parked.size());
    }

    @Test
    void aParkedStartIsRemindedOfEveryQuarterOfTheWaitUntilItTimesOut() {
        parked.park(spec(JOB_A, 0), () -> false);
        timer.advance(WAIT_MS / 4 - 1);
        assertEquals(List.of(), reminded);
        timer.advance(WAIT_MS);
        assertEquals(List.of("1250 " + JOB_A + " p0", "2500 " + JOB_A + " p0", "3750 " + JOB_A + " p0"), reminded);
        assertEquals(List.of("5000 " + JOB_A + " p0 after 5000"), timedOut);
        assertEquals(0, timer.pending(), "no reminder left scheduled");
    }

    @Test
    void releasingAJobHandsBackItsStartsAndCancelsTheirTimeOuts() {
        parked.park(spec(JOB_A, 0), () -> false);
        parked.park(spec(JOB_A, 1), () -> false);
        parked.park(spec(JOB_B, 0), () -> false);
        assertEquals(List.of(spec(JOB_A, 0), spec(JOB_A, 1)), parked.release(JOB_A));
        assertEquals(List.of(), parked.release(JOB_A));
        timer.advance(WAIT_MS);
        assertEquals(List.of("5000 " + JOB_B + " p0 after 5000"), timedOut);
        assertEquals(0, timer.pending());
    }

    @Test
    void aJobKnownAtParkingTimeIsNotParked() {
        assertEquals(ParkedStarts.Parking.KNOWN_NOW, parked.park(spec(JOB_A, 0), () -> true));
        assertEquals(0, parked.size());
        assertEquals(0, timer.pending());
    }

    @Test
    void aCancelledStartNeitherRunsNorTimesOut() {
        ShuffleSpec s = spec(JOB_A, 2);
        parked.park(s, () -> false);
        parked.cancel(s.streamKey(), 2);
        assertEquals(0, parked.size());
        timer.advance(WAIT_MS);
        assertEquals(List.of(), timedOut);
        assertEquals(List.of(), parked.release(JOB_A));
    }

    @Test
    void beyondTheBoundAStartIsNotParked() {
        for (int p = 0; p < ParkedStarts.MAX_PARKED; p++) {
            assertEquals(ParkedStarts.Parking.PARKED, parked.park(spec(JOB_A, p), () -> false));
        }
        assertEquals(ParkedStarts.Parking.FULL, parked.park(spec(JOB_B, 0), () -> false));
        assertEquals(ParkedStarts.MAX_PARKED, parked.size());
    }

    @Test
    void whenEmptyCompletesOnceTheLastStartLeavesByReleaseCancelOrTimeOut() {
        assertTrue(parked.whenEmpty().isDone(), "nothing parked");
        ShuffleSpec cancelled = spec(JOB_A, 0);
        parked.park(cancelled, () -> false);
        parked.park(spec(JOB_A, 1), () -> false);
        timer.advance(1);
        parked.park(spec(JOB_B, 5), () -> false);
        CompletableFuture<Void> empty = parked.whenEmpty();
        parked.cancel(cancelled.streamKey(), 0);
        assertFalse(empty.isDone(), "two starts still parked");
        parked.release(JOB_A);
        assertFalse(empty.isDone(), "job B's start is still parked");
        timer.advance(WAIT_MS);
        assertEquals(List.of("5001 " + JOB_B + " p5 after 5000"), timedOut);
        assertTrue(empty.isDone(), "the last parked start timed out");

        parked.park(spec(JOB_A, 3), () -> false);
        CompletableFuture<Void> released = parked.whenEmpty();
        parked.release(JOB_A);
        assertTrue(released.isDone(), "the last parked start was released");
        ShuffleSpec last = spec(JOB_B, 1);
        parked.park(last, () -> false);
        CompletableFuture<Void> dropped = parked.whenEmpty();
        parked.cancel(last.streamKey(), 1);
        assertTrue(dropped.isDone(), "the last parked start was cancelled");
    }
}
