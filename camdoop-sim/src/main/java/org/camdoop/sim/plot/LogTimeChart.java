package org.camdoop.sim.plot;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * A chart of time on a log-scale y axis, as the paper draws its Figures 5 to 7: measured or simulated modes as lines
 * with markers, lower bounds as dashed lines without. Points a log axis cannot show (NaN, zero) are left out. Drawn
 * with Java2D in headless mode: no display needed, but a font (fontconfig) is. Not thread-safe.
 */
public final class LogTimeChart {

    public static final int WIDTH = 900;
    public static final int HEIGHT = 560;

    private static final BasicStroke DASHED = new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
            new float[] {6f, 4f}, 0f);

    private final XYChart chart;

    /** @param logX whether the x axis is log-scale too (R and sizes; S is linear) */
    public LogTimeChart(String title, String xAxis, boolean logX) {
        System.setProperty("java.awt.headless", "true");
        chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(xAxis)
                .yAxisTitle("seconds (log scale)").build();
        Styler styler = chart.getStyler();
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setXAxisLogarithmic(logX);
        styler.setLegendPosition(Styler.LegendPosition.OutsideS);
        styler.setLegendLayout(Styler.LegendLayout.Horizontal);
        styler.setChartBackgroundColor(Color.WHITE);
    }

    /** A measured or simulated series. */
    public LogTimeChart line(String name, double[] x, double[] y) {
        add(name, x, y, false);
        return this;
    }

    /** A lower bound: dashed, no markers. */
    public LogTimeChart bound(String name, double[] x, double[] y) {
        add(name, x, y, true);
        return this;
    }

    /** Writes the chart as PNG to {@code file}. */
    public void save(Path file) throws IOException {
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private void add(String name, double[] x, double[] y, boolean bound) {
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
            s.setLineStyle(DASHED);
        }
    }
}
