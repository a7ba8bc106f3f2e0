package org.camdoop.shuffle.aggregation.exactlyonce;

import org.camdoop.shuffle.protocol.MapAttemptSummary;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ExactlyOnceReportTest {
    private static final String M0 = "attempt_x_m_000000_0";
    private static final String M1 = "attempt_x_m_000001_0";
    private static final String M2 = "attempt_x_m_000002_0";
    private static final String M3 = "attempt_x_m_000003_0";
    private static final String M4 = "attempt_x_m_000004_0";

    @Test
    void completeUnionPasses() throws Exception {
        ExactlyOnceReport r = ExactlyOnceReport.check(3, List.of(M0, M1, M2),
                List.of(MapAttemptSummary.of("tree 0", List.of(M1)), MapAttemptSummary.of("local", List.of(M0, M2))));
        assertTrue(r.isExactlyOnce());
        r.throwIfViolated();
        assertEquals("partition 3: every map attempt included exactly once", r.message());
    }

    @Test
    void missingAndDuplicatedAreNamedWithTheirTrees() {
        ExactlyOnceReport r = ExactlyOnceReport.check(3, List.of(M0, M1, M2, M3, M4), List.of(
                MapAttemptSummary.of("tree 0", List.of(M0)),
                MapAttemptSummary.of("tree 2", List.of(M1, M2)),
                MapAttemptSummary.of("tree 5", List.of(M1, M3))));
        assertEquals("partition 3: map attempts missing: [attempt_x_m_000004_0]; duplicated: "
                + "[attempt_x_m_000001_0 (from tree 2 and tree 5)]", r.message());
        ExactlyOnceViolationException e = assertThrows(ExactlyOnceViolationException.class, r::throwIfViolated);
        assertEquals(r.message(), e.getMessage());
        // What the reduce task reads back out of the failure reason that quotes the message, to report as lost.
        assertEquals(List.of(M4), org.camdoop.shuffle.protocol.MissingMapAttempts.in("root vertex 0,0,0: " + r.message() + " (generation 1)"));
        assertEquals(List.of(), org.camdoop.shuffle.protocol.MissingMapAttempts.in("partition 3: map attempts unexpected: [" + M4 + "]"));
    }

    @Test
    void threeWayDuplicateAndUnexpectedAttempt() {
        ExactlyOnceReport r = ExactlyOnceReport.check(0, List.of(M0, M1), List.of(
                MapAttemptSummary.of("tree 1", List.of(M0, M1)),
                MapAttemptSummary.of("tree 2", List.of(M0)),
                MapAttemptSummary.of("local", List.of(M0, "attempt_x_m_000001_1"))));
        assertEquals("partition 0: map attempts duplicated: [attempt_x_m_000000_0 (from tree 1, tree 2 and local)]; "
                + "unexpected: [attempt_x_m_000001_1]", r.message());
    }

    @Test
    void onlyUnexpected() {
        ExactlyOnceReport r = ExactlyOnceReport.check(7, List.of(M0),
                List.of(MapAttemptSummary.of("tree 4", List.of(M0, M4))));
        assertEquals("partition 7: map attempts unexpected: [attempt_x_m_000004_0]", r.message());
    }

    @Test
    void vertexUnionRejectsOverlapsAndKeepsTheRest() throws Exception {
        MapAttemptSummary merged = ExactlyOnceReport.union("tree 2", 3, List.of(
                MapAttemptSummary.of("local", List.of(M2)), MapAttemptSummary.of("child (1,0,0)", List.of(M0, M1))));
        assertEquals(List.of(M0, M1, M2), List.copyOf(merged.attempts()));
        assertEquals("tree 2", merged.source());
        ExactlyOnceViolationException e = assertThrows(ExactlyOnceViolationException.class,
                () -> ExactlyOnceReport.union("tree 2", 3, List.of(MapAttemptSummary.of("local", List.of(M2)),
                        MapAttemptSummary.of("child (1,0,0)", List.of(M2)))));
        assertEquals("partition 3: map attempts duplicated: [attempt_x_m_000002_0 (from local and child (1,0,0))]",
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> MapAttemptSummary.of("tree 0", List.of(M0, M0)));
    }
}
