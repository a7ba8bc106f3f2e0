package org.camdoop.bench.paper;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.camdoop.bench.shuffle.ShuffleBenchResult;
import org.camdoop.shuffle.protocol.ShuffleMode;

/** The Markdown summary of a sweep: the set-up, our ratios beside the paper's, and every figure as a table. */
final class PaperReport {

    /**
     * A ratio the paper states in its text (section 5.2 and 5.5): how many times faster Camdoop was than Camdoop (no
     * agg.) and than TCP Camdoop on one workload; NaN where the paper gives no number. {@code smallMb} is the input
     * size of a Figure 10 workload, 0 for the plan's own size.
     */
    record PaperRatio(String name, double ratioS, int reducers, double smallMb, double vsNoagg,
            double vsDirect) {

        /** The workload under {@code plan}; it ran if the results hold it. */
        PaperPoint workload(PaperPlan plan) {
            return new PaperPoint(ratioS, reducers, smallMb > 0 ? smallMb : plan.mbPerServer(), ShuffleMode.CAMDOOP);
        }
    }

    static final List<PaperRatio> PAPER_RATIOS = List.of(
            new PaperRatio("S=0, R=1 (Figure 5a)", 0, 1, 0, 12.67, 67.5),
            new PaperRatio("S=0, R=27 (Figure 5c)", 0, 27, 0, 3.93, 15.71),
            new PaperRatio("S=1, R=1 (Figure 5a: \"the same\")", 1, 1, 0, 1.0, Double.NaN),
            new PaperRatio("20 KB per server, S=0, R=1 (Figure 10)", 0, 1, 0.02, 13.42, 14.33),
            new PaperRatio("200 KB per server, S=0, R=1 (Figure 10)", 0, 1, 0.2, 9.05, 17.23));

    private PaperReport() {
    }

    static String markdown(PaperResults results, String preset) {
        PaperPlan plan = results.plan();
        StringBuilder b = new StringBuilder();
        b.append("# `camdoop bench paper` (").append(preset).append(")\n\n");
        b.append(String.format(Locale.ROOT, "Run %s on %d cores, Java %s, %s. Sweep wall time %.1f min (%d points).%n%n",
                ZonedDateTime.now().format(DateTimeFormatter.ISO_LOCAL_DATE), Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"), System.getProperty("os.name") + " " + System.getProperty("os.arch"),
                results.wallSeconds() / 60, results.results().size()));
        b.append(String.format(Locale.ROOT, "Torus %s (the paper's testbed), one map output per server; links %s Mbit/s"
                + " per direction; %s MB of map output per server (small-input figure: %s MB); %d-byte segments;"
                + " seed %d. Times are shuffle + reduce, from starting the shuffles to the last reducer's end.%n%n",
                PaperPlan.SHAPE, PaperPoint.trim(plan.linkMbps()), PaperPoint.trim(plan.mbPerServer()),
                plan.smallMbPerServer().stream().map(PaperPoint::trim).toList(), plan.segmentBytes(), plan.seed()));
        cpu(b, results);
        ratios(b, results);
        switches(b, results);
        for (PaperFigure f : PaperFigure.values()) {
            figure(b, results, f);
        }
        return b.toString();
    }

    private static void cpu(StringBuilder b, PaperResults results) {
        b.append("CPU utilisation during the timed part (process CPU / (wall x cores)), per mode: ");
        List<String> parts = new ArrayList<>();
        for (ShuffleMode mode : PaperPlan.MODES) {
            double[] u = results.results().values().stream().filter(r -> r.options().mode() == mode)
                    .mapToDouble(ShuffleBenchResult::cpuUtilisation).filter(Double::isFinite).sorted().toArray();
            if (u.length > 0) {
                parts.add(String.format(Locale.ROOT, "%s %.0f-%.0f %% (median %.0f %%)", mode.label(), 100 * u[0],
                        100 * u[u.length - 1], 100 * u[u.length / 2]));
            }
        }
        b.append(String.join("; ", parts)).append(".\n\n");
    }

    private static void ratios(StringBuilder b, PaperResults results) {
        b.append("## Speed-ups beside the paper's\n\n");
        b.append("How many times faster camdoop ran than noagg (the paper's Camdoop (no agg.)) and than direct (TCP"
                + " Camdoop), ours measured side by side in this run.\n\n");
        b.append("| workload | camdoop s | vs noagg (ours) | vs noagg (paper) | vs direct (ours) | vs direct (paper) |\n");
        b.append("|---|---:|---:|---:|---:|---:|\n");
        for (PaperRatio r : PAPER_RATIOS) {
            PaperPoint p = r.workload(results.plan());
            if (results.get(p).isEmpty()) {
                continue;
            }
            b.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s |%n", r.name(), fmt(results.seconds(p)),
                    times(results.speedup(p, ShuffleMode.NOAGG)), times(r.vsNoagg()),
                    times(results.speedup(p, ShuffleMode.DIRECT)), times(r.vsDirect())));
        }
        b.append('\n');
    }

    private static void switches(StringBuilder b, PaperResults results) {
        int camdoopRuns = 0;
        int underOne = 0;
        int underSix = 0;
        for (ShuffleBenchResult r : results.results().values()) {
            if (r.options().mode() != ShuffleMode.CAMDOOP) {
                continue;
            }
            camdoopRuns++;
            underOne += r.seconds() < r.switchBound().oneLinkSeconds() ? 1 : 0;
            underSix += r.seconds() < r.switchBound().sixLinksSeconds() ? 1 : 0;
        }
        b.append(String.format(Locale.ROOT, "Against the switch lower bounds (no reduce time in them, as in the paper):"
                + " camdoop beat \"Switch 1 link\" at %d of %d workloads and \"Switch 6 links\" at %d of %d. The paper:"
                + " always below Switch (1 Gbps); below Switch (6 Gbps) for low S at R=1 only.%n%n", underOne,
                camdoopRuns, underSix, camdoopRuns));
    }

    private static void figure(StringBuilder b, PaperResults results, PaperFigure f) {
        List<PaperPoint> xs = f.workloads(results.plan()).stream().filter(p -> results.get(p).isPresent()).toList();
        if (xs.isEmpty()) {
            return;
        }
        b.append("## ").append(f.title()).append("\n\n");
        b.append("![").append(f.title()).append("](").append(f.fileName()).append(".png)\n\n");
        b.append("| ").append(f.xAxis()).append(" | camdoop s | noagg s | direct s | switch 1 link s | switch 6 links s"
                + " | camdoop / its bound | camdoop cpu |\n");
        b.append("|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (PaperPoint p : xs) {
            ShuffleBenchResult c = results.get(p).orElseThrow();
            b.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s |%n",
                    PaperPoint.trim(f.x(p)), fmt(c.seconds()), fmt(results.seconds(p.withMode(ShuffleMode.NOAGG))),
                    fmt(results.seconds(p.withMode(ShuffleMode.DIRECT))), fmt(c.switchBound().oneLinkSeconds()),
                    fmt(c.switchBound().sixLinksSeconds()), String.format(Locale.ROOT, "%.2f", c.ratioToLowerBound()),
                    String.format(Locale.ROOT, "%.0f %%", 100 * c.cpuUtilisation())));
        }
        b.append('\n');
    }

    private static String fmt(double seconds) {
        if (!Double.isFinite(seconds)) {
            return "-";
        }
        return seconds < 10 ? String.format(Locale.ROOT, "%.3f", seconds) : String.format(Locale.ROOT, "%.1f", seconds);
    }

    private static String times(double ratio) {
        return Double.isFinite(ratio) ? String.format(Locale.ROOT, "%.2fx", ratio) : "-";
    }
}
