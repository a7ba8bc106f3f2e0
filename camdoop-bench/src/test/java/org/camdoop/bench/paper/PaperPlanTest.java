package org.camdoop.bench.paper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.junit.jupiter.api.Test;

/** Which points the presets run: every figure's workloads, shared ones once, each in the three modes side by side. */
class PaperPlanTest {

    @Test
    void theFullSweepRunsSixteenWorkloadsInThreeModes() {
        List<PaperPoint> points = PaperPlan.full().points();
        // Figure 5: 5 S x {R=1, R=27}; Figure 7 adds R=3 and R=9 for S=0 and S=1; Figure 10 adds 20 KB and 200 KB.
        assertEquals(48, points.size());
        assertEquals(points.size(), new HashSet<>(points).size(), "no point runs twice");
        for (int i = 0; i < points.size(); i += 3) {
            PaperPoint p = points.get(i);
            assertEquals(List.of(p.withMode(ShuffleMode.CAMDOOP), p.withMode(ShuffleMode.NOAGG),
                    p.withMode(ShuffleMode.DIRECT)), points.subList(i, i + 3), "the modes of a workload run together");
        }
    }

    @Test
    void everyFigureFindsItsWorkloadsAmongThePoints() {
        for (PaperPlan plan : List.of(PaperPlan.full(), PaperPlan.quick())) {
            List<PaperPoint> points = plan.points();
            for (PaperFigure f : PaperFigure.values()) {
                assertTrue(points.containsAll(f.workloads(plan)), f.name());
            }
        }
        PaperPlan full = PaperPlan.full();
        assertEquals(List.of(1.0, 3.0, 9.0, 27.0),
                PaperFigure.R_SWEEP_SHARED_KEYS.workloads(full).stream().map(PaperFigure.R_SWEEP_SHARED_KEYS::x).toList());
        assertEquals(List.of(0.02, 0.2),
                PaperFigure.SMALL_INPUTS.workloads(full).stream().map(PaperFigure.SMALL_INPUTS::x).toList());
    }

    @Test
    void theQuickPresetIsSmallerInEveryDimension() {
        PaperPlan quick = PaperPlan.quick();
        PaperPlan full = PaperPlan.full();
        assertEquals(36, quick.points().size());
        assertTrue(quick.mbPerServer() < full.mbPerServer());
        // Time of the longest run (direct, R=1) scales with data over rate.
        assertTrue(quick.mbPerServer() / quick.linkMbps() < full.mbPerServer() / full.linkMbps() / 5);
    }

    @Test
    void badPlansAreRefusedWithTheReason() {
        PaperPlan full = PaperPlan.full();
        assertEquals("--link-mbps must be > 0: the sweep compares times on shaped links",
                assertThrows(IllegalArgumentException.class, () -> full.with(0.25, 0, 1024)).getMessage());
        assertEquals("--mb-per-server must be in (0, 1000], got -1.0",
                assertThrows(IllegalArgumentException.class, () -> full.with(-1, 1, 1024)).getMessage());
        assertEquals("--segment-bytes must be in [512, 1048576], got 100",
                assertThrows(IllegalArgumentException.class, () -> full.with(0.25, 1, 100)).getMessage());
    }
}
