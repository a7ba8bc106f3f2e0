package org.camdoop.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.camdoop.sim.FigureSweep;
import org.camdoop.sim.RootSymmetry;
import org.camdoop.sim.SimCharts;
import org.camdoop.sim.SimMode;
import org.camdoop.sim.SimPoint;
import org.camdoop.sim.SimResult;
import org.camdoop.sim.SimSetup;
import org.camdoop.sim.SwitchBounds;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.trees.TreeChoice;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code camdoop simulate}: the flow-level simulator of the paper's Figures 6, 7c and 7d (docs/simulation.md). Prints
 * one row per point with camdoop and noagg seconds and the three switch lower bounds; a progress line per point goes
 * to stderr.
 */
@Command(name = "simulate", mixinStandardHelpOptions = true,
        description = {"Simulate shuffles on a failure-free torus with a fluid (flow-level) model; see docs/simulation.md.",
            "Without --figure: one point (--ratio-s, --reducers). With --figure: 6 (S = 0..1 by 0.1 for R = 1 and N),",
            "7c (R = 1, 2, 4, ..., N at S = 1), 7d (the same at S = 0) or all."})
public final class SimulateCommand implements Callable<Integer> {

    private static final String CSV_HEADER =
            "figure,ratio_s,reducers,camdoop_s,noagg_s,switch_1g_s,switch_6g_s,switch_1g_oversub_s,"
            + "camdoop_busiest_link_s,noagg_busiest_link_s,symmetric,wall_s";

    @Spec
    CommandSpec spec;

    @Option(names = "--shape", required = true, paramLabel = "AxBxC", description = "Torus shape, e.g. 8x8x8.")
    String shape;

    @Option(names = "--mb-per-server", defaultValue = "2", paramLabel = "M",
            description = "Map output per server in MB of 10^6 bytes (default: ${DEFAULT-VALUE}, as the paper).")
    double mbPerServer;

    @Option(names = "--link-gbps", defaultValue = "1", paramLabel = "L",
            description = "Rate of every link per direction, Gbit/s (default: ${DEFAULT-VALUE}).")
    double linkGbps;

    @Option(names = "--figure", paramLabel = "6|7c|7d|all", description = "Sweep the points of a figure.")
    String figure;

    @Option(names = "--ratio-s", defaultValue = "0", paramLabel = "S",
            description = "Output ratio for one point, 0 meaning 1/N (default: ${DEFAULT-VALUE}).")
    double ratioS;

    @Option(names = "--reducers", defaultValue = "1", paramLabel = "R",
            description = "Reducers for one point (default: ${DEFAULT-VALUE}).")
    int reducers;

    @Option(names = "--mode", paramLabel = "camdoop|noagg", description = "Simulate only this mode (default: both).")
    String mode;

    @Option(names = "--trees", defaultValue = "six", paramLabel = "six|shortest",
            description = "Six disjoint trees or one shortest-path tree per root (default: ${DEFAULT-VALUE}).")
    String trees;

    @Option(names = "--csv", paramLabel = "FILE", description = "Also write the points as CSV.")
    Path csv;

    @Option(names = "--plots", paramLabel = "DIR",
            description = "Also draw the figures' panels as PNGs (log-scale time, as in the paper) into DIR.")
    Path plots;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    boolean json;

    @Override
    public Integer call() {
        TorusShape torus = TorusShape.parse(shape);
        if (!(mbPerServer > 0) || !(linkGbps > 0)) {
            throw new IllegalArgumentException("--mb-per-server and --link-gbps must be > 0");
        }
        SimSetup setup = new SimSetup(torus, TreeChoice.parse(trees), mbPerServer * 1e6, linkGbps * 1e9 / 8);
        List<SimMode> modes = mode == null ? List.of(SimMode.CAMDOOP, SimMode.NOAGG) : List.of(SimMode.parse(mode));
        List<FigureSweep.Point> sweep = figure == null
                ? List.of(new FigureSweep.Point("point", ratioS, reducers))
                : FigureSweep.points(figure, torus.size());
        for (FigureSweep.Point p : sweep) {
            setup.volumes(p.ratioS(), p.reducers()); // validates S
            if (p.reducers() < 1 || p.reducers() > torus.size()) {
                throw new IllegalArgumentException("--reducers must be in [1, " + torus.size() + "], got "
                        + p.reducers());
            }
        }
        PrintWriter err = spec.commandLine().getErr();
        long start = System.nanoTime();
        List<SimPoint> points = new ArrayList<>();
        for (FigureSweep.Point p : sweep) {
            SimPoint point = simulate(setup, modes, p);
            points.add(point);
            err.printf(Locale.ROOT, "simulate %s: figure %s S=%.1f R=%d: camdoop %s s (busiest link %s s),"
                    + " noagg %s s (%s s), switch 1G %.4g s (%.2f s wall)%n", torus, p.figure(), p.ratioS(),
                    p.reducers(), fmt(point.camdoop()), fmt(point.camdoopLinkBound()), fmt(point.noagg()),
                    fmt(point.noaggLinkBound()), point.bounds().oneGbps(), point.wallSeconds());
            err.flush();
        }
        double wall = (System.nanoTime() - start) / 1e9;
        if (csv != null) {
            writeCsv(points);
        }
        if (plots != null) {
            try {
                Files.createDirectories(plots);
                SimCharts.write(torus, points, plots);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the plots into " + plots, e);
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(toJson(setup, points, wall));
        } else {
            printTable(out, setup, points, wall);
        }
        out.flush();
        return 0;
    }

    private static SimPoint simulate(SimSetup setup, List<SimMode> modes, FigureSweep.Point p) {
        long t0 = System.nanoTime();
        double camdoop = Double.NaN;
        double noagg = Double.NaN;
        double camdoopLink = Double.NaN;
        double noaggLink = Double.NaN;
        RootSymmetry symmetry = setup.symmetry(p.reducers());
        for (SimMode m : modes) {
            SimResult r = setup.simulate(m, p.ratioS(), p.reducers(), symmetry);
            double linkBound = r.busiestLinkBytes() / setup.linkBytesPerSecond();
            if (m == SimMode.CAMDOOP) {
                camdoop = r.seconds();
                camdoopLink = linkBound;
            } else {
                noagg = r.seconds();
                noaggLink = linkBound;
            }
        }
        SwitchBounds bounds = setup.bounds(p.ratioS(), p.reducers());
        return new SimPoint(p.figure(), p.ratioS(), p.reducers(), camdoop, noagg, camdoopLink, noaggLink, bounds,
                symmetry.reduced(),
                (System.nanoTime() - t0) / 1e9);
    }

    private static String fmt(double seconds) {
        return Double.isNaN(seconds) ? "-" : String.format(Locale.ROOT, "%.4g", seconds);
    }

    private static void printTable(PrintWriter out, SimSetup setup, List<SimPoint> points, double wall) {
        out.printf(Locale.ROOT, "torus %s: %d servers, %s trees, %.3g MB per server, %.3g Gbit/s links%n",
                setup.shape(), setup.shape().size(), setup.trees().label(), setup.bytesPerServer() / 1e6,
                setup.linkBytesPerSecond() * 8 / 1e9);
        out.printf("%-6s %-5s %-6s %-11s %-11s %-11s %-11s %-11s %s%n", "figure", "S", "R", "camdoop s", "noagg s",
                "switch 1G", "switch 6G", "1G 1:4", "1G/camdoop");
        for (SimPoint p : points) {
            out.printf(Locale.ROOT, "%-6s %-5.1f %-6d %-11s %-11s %-11.4g %-11.4g %-11.4g %s%n", p.figure(), p.ratioS(),
                    p.reducers(), fmt(p.camdoop()), fmt(p.noagg()), p.bounds().oneGbps(), p.bounds().sixGbps(),
                    p.bounds().oversubscribed(),
                    Double.isNaN(p.camdoop()) || p.camdoop() == 0 ? "-"
                            : String.format(Locale.ROOT, "%.3gx", p.bounds().oneGbps() / p.camdoop()));
        }
        out.printf(Locale.ROOT, "wall time: %.2f s for %d points%n", wall, points.size());
    }

    private void writeCsv(List<SimPoint> points) {
        StringBuilder b = new StringBuilder(CSV_HEADER).append('\n');
        for (SimPoint p : points) {
            b.append(String.format(Locale.ROOT, "%s,%s,%d,%s,%s,%s,%s,%s,%s,%s,%b,%.3f%n", p.figure(),
                    p.ratioS(), p.reducers(), p.camdoop(), p.noagg(), p.bounds().oneGbps(), p.bounds().sixGbps(),
                    p.bounds().oversubscribed(), p.camdoopLinkBound(), p.noaggLinkBound(), p.symmetric(),
                    p.wallSeconds()));
        }
        try {
            Files.writeString(csv, b.toString(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + csv, e);
        }
    }

    private static String toJson(SimSetup setup, List<SimPoint> points, double wall) {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = mapper.createObjectNode();
        TorusShape s = setup.shape();
        root.putArray("shape").add(s.dim(0)).add(s.dim(1)).add(s.dim(2));
        root.put("trees", setup.trees().label());
        root.put("bytes_per_server", setup.bytesPerServer());
        root.put("link_bytes_per_second", setup.linkBytesPerSecond());
        ArrayNode array = root.putArray("points");
        for (SimPoint p : points) {
            ObjectNode o = array.addObject();
            o.put("figure", p.figure());
            o.put("ratio_s", p.ratioS());
            o.put("reducers", p.reducers());
            putSeconds(o, "camdoop_s", p.camdoop());
            putSeconds(o, "noagg_s", p.noagg());
            o.put("switch_1g_s", p.bounds().oneGbps());
            o.put("switch_6g_s", p.bounds().sixGbps());
            o.put("switch_1g_oversub_s", p.bounds().oversubscribed());
            putSeconds(o, "camdoop_busiest_link_s", p.camdoopLinkBound());
            putSeconds(o, "noagg_busiest_link_s", p.noaggLinkBound());
            o.put("symmetric", p.symmetric());
            o.put("wall_s", p.wallSeconds());
        }
        root.put("wall_s", wall);
        try {
            return mapper.writeValueAsString(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void putSeconds(ObjectNode o, String key, double seconds) {
        if (Double.isNaN(seconds)) {
            o.putNull(key);
        } else {
            o.put(key, seconds);
        }
    }
}
