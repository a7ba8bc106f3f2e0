package org.camdoop.shuffle.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.TreeSet;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapred.TaskCompletionEvent;
import org.apache.hadoop.mapred.TaskCompletionEvent.Status;
import org.junit.jupiter.api.Test;

/** The stock shuffle's reading of map completion events. */
class MapCompletionEventsTest {

    private static TaskCompletionEvent event(int map, int attempt, Status status) {
        TaskAttemptID id = TaskAttemptID.forName(String.format("attempt_1700000000000_0001_m_%06d_%d", map, attempt));
        return new TaskCompletionEvent(0, id, map, true, status, "http://host:13562");
    }

    private static String name(int map, int attempt) {
        return String.format("attempt_1700000000000_0001_m_%06d_%d", map, attempt);
    }

    @Test
    void firstSuccessCountsAndObsoleteBringsBackTheReserve() {
        MapCompletionEvents e = new MapCompletionEvents(3);
        e.apply(event(0, 0, Status.SUCCEEDED));
        e.apply(event(0, 1, Status.SUCCEEDED));
        e.apply(event(1, 0, Status.FAILED));
        assertEquals(2, e.missing());
        e.apply(event(1, 1, Status.SUCCEEDED));
        e.apply(event(2, 0, Status.TIPFAILED));
        assertEquals(0, e.missing());
        assertEquals(new TreeSet<>(List.of(name(0, 0), name(1, 1))), e.chosen());
        e.apply(event(0, 0, Status.OBSOLETE));
        assertEquals(new TreeSet<>(List.of(name(0, 1), name(1, 1))), e.chosen());
        e.apply(event(0, 1, Status.KILLED));
        assertEquals(1, e.missing());
        // An attempt once obsolete never counts again, even if a stale SUCCEEDED arrives after.
        e.apply(event(0, 1, Status.SUCCEEDED));
        assertEquals(1, e.missing());
        e.reset();
        assertEquals(3, e.missing());
    }

    /**
     * A lost output is replaced once the ApplicationMaster made it obsolete and another attempt of its map counts; a
     * map that failed as a whole has nothing to wait for.
     */
    @Test
    void aLostAttemptIsReplacedOnlyByAnotherAttemptOfItsMapThatCounts() {
        MapCompletionEvents e = new MapCompletionEvents(3);
        e.apply(event(0, 0, Status.SUCCEEDED));
        e.apply(event(1, 0, Status.SUCCEEDED));
        List<String> lost = List.of(name(0, 0), name(1, 0));
        assertEquals(java.util.Map.of(), e.replacementsFor(lost), "still counting: not replaced");
        e.apply(event(0, 0, Status.OBSOLETE));
        e.apply(event(1, 0, Status.OBSOLETE));
        e.apply(event(0, 1, Status.SUCCEEDED));
        assertEquals(java.util.Map.of(), e.replacementsFor(lost), "map 1 has no new attempt yet");
        e.apply(event(1, 2, Status.SUCCEEDED));
        assertEquals(java.util.Map.of(name(0, 0), name(0, 1), name(1, 0), name(1, 2)), e.replacementsFor(lost));
        e.apply(event(2, 0, Status.TIPFAILED));
        IllegalStateException failed = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> e.replacementsFor(List.of(name(2, 0))));
        assertEquals("map task_1700000000000_0001_m_000002, whose output " + name(2, 0) + " was lost, failed as a"
                + " whole", failed.getMessage());
    }
}
