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
}
