package org.camdoop.examples.bench.paper;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.camdoop.examples.bench.shuffle.ShuffleBenchResult;
import org.camdoop.shuffle.service.ShuffleMode;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Draws each figure as a PNG in the paper's style: time on a log-scale y axis against S or R, one line per mode, and
 * the switch lower bounds as dashed lines without markers. Needs no display (AWT runs headless).
 */
final class PaperCharts {

    static final int WIDTH = 900;
    static final int HEIGHT = 560;

    private PaperCharts() {
    }

    /** Writes {@code <figure>.png} for every figure with results into {@code dir}; returns the files written. */
    static List<Path> write(PaperResults results, Path dir) throws IOException {
        System.setProperty("java.awt.headless", "true");
        List<Path> files = new ArrayList<>();
        for (PaperFigure figure : PaperFigure.values()) {
            List<PaperPoint> xs = figure.workloads(results.plan()).stream()
                    .filter(p -> results.get(p).isPresent()).toList();
            if (xs.isEmpty()) {
                continue;
            }
            XYChart chart = chart(figure, results, xs);
            Path file = dir.resolve(figure.fileName() + ".png");
            BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
            files.add(file);
        }
        return files;
    }

    private static XYChart chart(PaperFigure figure, PaperResults results, List<PaperPoint> xs) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(figure.title())
                .xAxisTitle(figure.xAxis()).yAxisTitle("seconds (log scale)").build();
        Styler styler = chart.getStyler();
        chart.getStyler().setYAxisLogarithmic(true);
        styler.setLegendPosition(Styler.LegendPosition.OutsideS);
        styler.setLegendLayout(Styler.LegendLayout.Horizontal);
        styler.setChartBackgroundColor(java.awt.Color.WHITE);
        double[] x = xs.stream().mapToDouble(figure::x).toArray();
        if (figure == PaperFigure.R_SWEEP_UNIQUE_KEYS || figure == PaperFigure.R_SWEEP_SHARED_KEYS
                || figure == PaperFigure.SMALL_INPUTS) {
            chart.getStyler().setXAxisLogarithmic(true);
        }
        for (ShuffleMode mode : PaperPlan.MODES) {
            line(chart, label(mode), x, y(results, xs, mode, ShuffleBenchResult::seconds), false);
        }
        line(chart, "Switch 1 link (bound)", x,
                y(results, xs, ShuffleMode.CAMDOOP, r -> r.switchBound().oneLinkSeconds()), true);
        line(chart, "Switch 6 links (bound)", x,
                y(results, xs, ShuffleMode.CAMDOOP, r -> r.switchBound().sixLinksSeconds()), true);
        return chart;
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

    /** Adds a series unless it has no positive finite value (a log axis cannot show it). */
    private static void line(XYChart chart, String name, double[] x, double[] y, boolean bound) {
        List<Double> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        for (int i = 0; i < y.length; i++) {
            if (Double.isFinite(y[i]) && y[i] > 0) {
                xs.add(x[i]);
                ys.add(y[i]);
            }
        }
        if (ys.isEmpty()) {
            return;
        }
        XYSeries s = chart.addSeries(name, xs, ys);
        if (bound) {
            s.setMarker(SeriesMarkers.NONE);
            s.setLineStyle(new java.awt.BasicStroke(1.5f, java.awt.BasicStroke.CAP_BUTT, java.awt.BasicStroke.JOIN_MITER,
                    10f, new float[] {6f, 4f}, 0f));
        }
    }
}
