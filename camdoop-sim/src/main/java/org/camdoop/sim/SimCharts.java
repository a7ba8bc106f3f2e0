package org.camdoop.sim;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.camdoop.sim.plot.LogTimeChart;
import org.camdoop.torus.topology.TorusShape;

/**
 * The simulated figures as PNGs, as the paper draws them: Figure 6 as two panels (R=1 and R=N, time against S),
 * Figures 7(c) and 7(d) against R; camdoop and noagg as lines, the three switch bounds dashed.
 */
public final class SimCharts {

    private SimCharts() {
    }

    /** Writes one PNG per panel that has points into {@code dir}; returns the files written. */
    public static List<Path> write(TorusShape shape, List<SimPoint> points, Path dir) throws IOException {
        int n = shape.size();
        List<Path> files = new ArrayList<>();
        panel(files, dir, "sim-figure6-r1", "Figure 6 (simulated, " + shape + "): time vs S, R=1", "S", false,
                points.stream().filter(p -> p.figure().equals("6") && p.reducers() == 1).toList(), SimPoint::ratioS);
        if (n > 1) {
            panel(files, dir, "sim-figure6-r" + n, "Figure 6 (simulated, " + shape + "): time vs S, R=" + n, "S",
                    false, points.stream().filter(p -> p.figure().equals("6") && p.reducers() == n).toList(),
                    SimPoint::ratioS);
        }
        panel(files, dir, "sim-figure7c-s1", "Figure 7(c) (simulated, " + shape + "): time vs R, S=1", "R", true,
                points.stream().filter(p -> p.figure().equals("7c")).toList(), p -> p.reducers());
        panel(files, dir, "sim-figure7d-s0", "Figure 7(d) (simulated, " + shape + "): time vs R, S=0", "R", true,
                points.stream().filter(p -> p.figure().equals("7d")).toList(), p -> p.reducers());
        return files;
    }

    private static void panel(List<Path> files, Path dir, String name, String title, String xAxis, boolean logX,
            List<SimPoint> points, ToDoubleFunction<SimPoint> xOf) throws IOException {
        if (points.isEmpty()) {
            return;
        }
        double[] x = points.stream().mapToDouble(xOf).toArray();
        LogTimeChart chart = new LogTimeChart(title, xAxis, logX)
                .line("Camdoop", x, y(points, SimPoint::camdoop))
                .line("Camdoop (no agg.)", x, y(points, SimPoint::noagg))
                .bound("Switch 1 Gbps", x, y(points, p -> p.bounds().oneGbps()))
                .bound("Switch 6 Gbps", x, y(points, p -> p.bounds().sixGbps()))
                .bound("Switch 1 Gbps, 1:4 oversub.", x, y(points, p -> p.bounds().oversubscribed()));
        Path file = dir.resolve(name + ".png");
        chart.save(file);
        files.add(file);
    }

    private static double[] y(List<SimPoint> points, ToDoubleFunction<SimPoint> value) {
        return points.stream().mapToDouble(value).toArray();
    }
}
