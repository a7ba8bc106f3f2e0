package org.camdoop.shuffle.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import org.camdoop.shuffle.service.net.ShuffleMessages;
import org.junit.jupiter.api.Test;

/** Which run of a server's daemon reported what, and what a failure of a run takes with it. */
class MapOutputLocationsTest {

    private static final SortedSet<String> ATTEMPTS = new TreeSet<>(List.of("a0", "a1", "a2"));
    private static final int SERVER = 4;

    @Test
    void aFailureOfTheRunThatReportedTakesItsOutputsAndOneOfAnEarlierRunDoesNot() {
        MapOutputLocations l = new MapOutputLocations();
        l.held(SERVER, 20, ATTEMPTS, new int[] {1, 2});
        assertEquals(List.of("a1", "a2"), List.copyOf(l.diedWith(SERVER, 20, ATTEMPTS)));
        assertEquals(List.of("a1", "a2"), List.copyOf(l.diedWith(SERVER, 21, ATTEMPTS)), "a later run than reported");
        assertTrue(l.diedWith(SERVER, 19, ATTEMPTS).isEmpty(), "run 19 ended before run 20 reported");
        assertTrue(l.reportedAfter(SERVER, 19));
        assertFalse(l.reportedAfter(SERVER, 20));
        assertTrue(l.reportedBy(SERVER, 20));
        assertFalse(l.reportedBy(SERVER, 19), "run 19 may have held outputs nobody knows of");
        assertFalse(l.reportedBy(SERVER + 1, 20));
    }

    @Test
    void aReportThatDoesNotNameItsRunMatchesAnyRun() {
        MapOutputLocations l = new MapOutputLocations();
        l.held(SERVER, ShuffleMessages.Held.UNKNOWN_RUN, ATTEMPTS, new int[] {0});
        assertEquals(List.of("a0"), List.copyOf(l.diedWith(SERVER, 7, ATTEMPTS)));
        assertTrue(l.reportedBy(SERVER, 7));
        assertFalse(l.reportedAfter(SERVER, 7));
        assertFalse(l.reportedByLaterRun(SERVER, 7));
    }

    @Test
    void theReportingRunOutlivesTheSetWhileWhoReportedIsCountedPerSet() {
        MapOutputLocations l = new MapOutputLocations();
        l.held(SERVER, 20, ATTEMPTS, new int[] {0});
        SortedSet<String> next = new TreeSet<>(ATTEMPTS); // the next generation's copy of the same attempts
        l.held(SERVER + 1, 30, next, new int[0]);
        assertFalse(l.reported(SERVER), "reporters are counted per generation");
        assertTrue(l.reportedByLaterRun(SERVER, 19), "where a0 is, and which run said so, stays known");
        assertEquals(List.of("a0"), List.copyOf(l.heldBy(SERVER, next)));
    }
}
