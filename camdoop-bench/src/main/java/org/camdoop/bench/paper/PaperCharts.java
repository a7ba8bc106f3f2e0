package org.camdoop.bench.paper;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.camdoop.bench.shuffle.ShuffleBenchResult;
import org.camdoop.sim.plot.LogTimeChart;
import org.camdoop.shuffle.protocol.ShuffleMode;

/** Draws each figure of a sweep as a PNG: one line per mode and the two switch bounds, time on a log scale. */
final class PaperCharts {

    private PaperCharts() {
    }

    /** Writes {@code <figure>.png} for every figure with results into {@code dir}; returns the files written. */
    static List<Path> write(PaperResults results, Path dir) throws IOException {
        List<Path> files = new ArrayList<>();
        for (PaperFigure figure : PaperFigure.values()) {
            List<PaperPoint> xs = figure.workloads(results.plan()).stream()
                    .filter(p -> results.get(p).isPresent()).toList();
            if (xs.isEmpty()) {
                continue;
            }
            double[] x = xs.stream().mapToDouble(figure::x).toArray();
            LogTimeChart chart = new LogTimeChart(figure.title(), figure.xAxis(),
                    figure != PaperFigure.S_SWEEP_ONE_REDUCER && figure != PaperFigure.S_SWEEP_ALL_REDUCERS);
            for (ShuffleMode mode : PaperPlan.MODES) {
                chart.line(label(mode), x, y(results, xs, mode, ShuffleBenchResult::seconds));
            }
            chart.bound("Switch 1 link (bound)", x,
                    y(results, xs, ShuffleMode.CAMDOOP, r -> r.switchBound().oneLinkSeconds()));
            chart.bound("Switch 6 links (bound)", x,
                    y(results, xs, ShuffleMode.CAMDOOP, r -> r.switchBound().sixLinksSeconds()));
            Path file = dir.resolve(figure.fileName() + ".png");
            chart.save(file);
            files.add(file);
        }
        return files;
    }

    /** The paper's names for the modes. */
    static String label(ShuffleMode mode) {
        return switch (mode) {
            case CAMDOOP -> "Camdoop";
            case NOAGG -> "Camdoop (no agg.)";
            case DIRECT -> "direct (TCP Camdoop)";
        };
    }

    private static double[] y(PaperResults results, List<PaperPoint> xs, ShuffleMode mode,
            ToDoubleFunction<ShuffleBenchResult> value) {
        return xs.stream().mapToDouble(p -> results.get(p.withMode(mode)).map(value::applyAsDouble)
                .orElse(Double.NaN)).toArray();
    }
}
