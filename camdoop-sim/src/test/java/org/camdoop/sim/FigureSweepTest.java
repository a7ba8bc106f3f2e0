package org.camdoop.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class FigureSweepTest {

    @Test
    void figureSixSweepsSForOneAndAllReducers() {
        List<FigureSweep.Point> points = FigureSweep.points("6", 512);
        assertEquals(22, points.size());
        assertEquals(new FigureSweep.Point("6", 0.0, 1), points.get(0));
        assertEquals(new FigureSweep.Point("6", 1.0, 512), points.get(21));
    }

    @Test
    void figureSevenSweepsReducersByPowersOfTwoUpToN() {
        List<FigureSweep.Point> c = FigureSweep.points("7c", 512);
        assertEquals(10, c.size());
        assertEquals(new FigureSweep.Point("7c", 1.0, 64), c.get(6)); // the paper's 7(c) is S = 1
        List<FigureSweep.Point> d = FigureSweep.points("7d", 27);
        assertEquals(List.of(1, 2, 4, 8, 16, 27), d.stream().map(FigureSweep.Point::reducers).toList());
        assertEquals(0.0, d.get(0).ratioS());
        assertEquals(22 + 10 + 10, FigureSweep.points("all", 512).size());
    }
}
