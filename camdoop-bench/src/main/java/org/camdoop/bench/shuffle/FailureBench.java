package org.camdoop.bench.shuffle;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.awt.Color;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.trees.TreeChoice;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code camdoop bench failure}: the paper's Figure 9 (section 5.4) on an embedded torus. Parses and validates;
 * {@link FailureBenchRunner} does the work. Exit status 0 when every output equals its reference, 1 otherwise, 2 for
 * bad arguments.
 */
@Command(name = "failure", mixinStandardHelpOptions = true,
        description = {
            "Shuffle and reduce with a server crashing part-way (paper Figure 9), on an embedded torus: for R=1 the"
                + " root, its +x neighbour and a seeded server that is neither fail at 0.25T, 0.5T and 0.75T, where T"
                + " is the time of the same shuffle without a failure; for R=N a random server (the root of one"
                + " shuffle, a neighbour of six). The failing server holds no map output (as in the paper).",
            "stretch = time with the failure / T, both from the start of the shuffles to the last reducer's end."
                + " bound (R=1): the least stretch the links allow, the time before the crash plus the bytes the"
                + " reducer lacked then over the links into its root that survive (no detection, no redone work)."
                + " A crashed root's reduce attempt is re-run on its +x neighbour once that daemon declared it"
                + " failed. Every output is checked against the reference. See docs/recovery.md.",
            ""})
public final class FailureBench implements Callable<Integer> {

    /** One colour per (R, victim): its measured line solid, its network bound dashed. */
    private static final Color[] PALETTE = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c),
        new Color(0x9467bd), new Color(0xff7f0e), new Color(0x8c564b)};

    @Spec
    CommandSpec spec;

    @Option(names = "--shape", defaultValue = "3x3x3", paramLabel = "AxBxC",
            description = "Torus shape (default: ${DEFAULT-VALUE}).")
    String shape;

    @Option(names = "--mode", defaultValue = "camdoop", paramLabel = "camdoop|noagg|direct",
            description = "Shuffle mode (default: ${DEFAULT-VALUE}).")
    String mode;

    @Option(names = "--ratio-s", defaultValue = "1", paramLabel = "S",
            description = "Output ratio S; the paper uses 1, the worst case (default: ${DEFAULT-VALUE}).")
    double ratioS;

    @Option(names = "--mb-per-server", defaultValue = "1", paramLabel = "M",
            description = "Map output per server in MB (default: ${DEFAULT-VALUE}; --quick: 0.5).")
    double mbPerServer;

    @Option(names = "--link-mbps", defaultValue = "50", paramLabel = "L",
            description = "Torus link rate per direction in Mbit/s (default: ${DEFAULT-VALUE}).")
    double linkMbps;

    @Option(names = "--failure-timeout-ms", defaultValue = "100", paramLabel = "MS",
            description = "How long a link stays down before its neighbour is declared failed "
                    + "(camdoop.transport.failure.timeout.ms; default: ${DEFAULT-VALUE}).")
    long failureTimeoutMs;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "K", description = "Workload seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--victims", split = ",", defaultValue = "root,neighbour,random", paramLabel = "KIND[,KIND]",
            description = "Which servers fail at R=1: root, neighbour, random (default: ${DEFAULT-VALUE}).")
    List<String> victims;

    @Option(names = "--at", split = ",", defaultValue = "0.25,0.5,0.75", paramLabel = "F[,F]",
            description = "When they fail, as fractions of T, each in (0, 1) (default: ${DEFAULT-VALUE}).")
    List<Double> ats;

    @Option(names = "--reducers", split = ",", paramLabel = "R[,R]",
            description = "Reduce counts (default: 1 and the number of servers; --quick: 1).")
    List<Integer> reducerCounts;

    @Option(names = "--runs", defaultValue = "3", paramLabel = "N",
            description = "Runs per point: T and each failure point are medians (default: ${DEFAULT-VALUE}; "
                    + "--quick: 1).")
    int runs;

    @Option(names = "--buffer-budget-mb", defaultValue = "0", paramLabel = "MB",
            description = "Each daemon's transport buffer budget (camdoop.transport.buffer.budget.bytes) in MiB; 0: "
                    + "the default (default: ${DEFAULT-VALUE}).")
    long bufferBudgetMb;

    @Option(names = "--quick", description = "R=1 only, 0.5 MB per server, one run per point (about two minutes).")
    boolean quick;

    @Option(names = "--json", description = "Print one JSON object with the rows instead of the table.")
    boolean json;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Also write failure.csv and failure.png (stretch against failure time) into DIR.")
    Path out;

    @Option(names = "--quiet", description = "No progress lines on stderr.")
    boolean quiet;

    @Override
    public Integer call() throws Exception {
        if (failureTimeoutMs < 1) {
            throw new IllegalArgumentException("--failure-timeout-ms must be >= 1, got " + failureTimeoutMs);
        }
        if (out != null && !Files.isDirectory(out)) {
            throw new IllegalArgumentException("--out: " + out + " is not a directory");
        }
        ShuffleBenchOptions options = new ShuffleBenchOptions(TorusShape.parse(shape), ratioS, 1,
                ShuffleMode.parse(mode), TreeChoice.SIX, quick && mbPerServer == 1 ? 0.5 : mbPerServer, linkMbps,
                seed);
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<Integer> reducers = reducerCounts != null ? reducerCounts
                : quick ? List.of(1) : List.of(1, options.servers());
        List<FailureBenchRunner.Victim> kinds = victims.stream()
                .map(v -> FailureBenchRunner.Victim.valueOf(v.trim().toUpperCase(Locale.ROOT))).toList();
        if (ats.stream().anyMatch(a -> !(a > 0 && a < 1))) {
            throw new IllegalArgumentException("--at: every failure time must be in (0, 1), got " + ats);
        }
        List<FailureBenchRunner.Row> rows;
        try {
            rows = new FailureBenchRunner(options, failureTimeoutMs, quick && runs == 3 ? 1 : runs,
                    quiet ? Optional.empty() : Optional.of(err)).withBufferBudget(bufferBudgetMb << 20)
                    .run(reducers, kinds, ats);
        } catch (IllegalStateException e) {
            err.println("camdoop bench failure: " + e.getMessage());
            return 1;
        }
        if (json) {
            stdout.println(toJson(rows, options));
        } else {
            stdout.print(toText(rows, options));
        }
        stdout.flush();
        if (out != null) {
            Files.writeString(out.resolve("failure.csv"), toCsv(rows));
            plot(rows, out.resolve("failure.png"));
        }
        boolean correct = rows.stream().allMatch(FailureBenchRunner.Row::correct);
        if (!correct) {
            err.println("camdoop bench failure: an output differs from its reference");
        }
        return correct ? 0 : 1;
    }

    private String toJson(List<FailureBenchRunner.Row> rows, ShuffleBenchOptions o) throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = mapper.createObjectNode();
        root.put("shape", o.shape().toString());
        root.put("mode", o.mode().label());
        root.put("ratio_s", o.ratioS());
        root.put("mb_per_server", o.mbPerServer());
        root.put("link_mbps", o.linkMbps());
        root.put("failure_timeout_ms", failureTimeoutMs);
        ArrayNode array = root.putArray("rows");
        for (FailureBenchRunner.Row r : rows) {
            ObjectNode n = array.addObject();
            n.put("failed", r.failed().label());
            n.put("at", r.at());
            n.put("reducers", r.reducers());
            n.put("stretch", Math.round(r.stretch() * 1000) / 1000.0);
            if (Double.isFinite(r.boundStretch())) {
                n.put("bound_stretch", Math.round(r.boundStretch() * 1000) / 1000.0);
            } else {
                n.putNull("bound_stretch");
            }
            n.put("correct", r.correct());
            n.put("victim", r.victim().toString());
            n.put("seconds", r.seconds());
            n.put("baseline_seconds", r.baselineSeconds());
            n.put("restarts", r.restarts());
            n.put("repairs", r.repairs());
        }
        return mapper.writeValueAsString(root);
    }

    private String toText(List<FailureBenchRunner.Row> rows, ShuffleBenchOptions o) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT,
                "failure during the shuffle: %s, %s, S=%s, %.2f MB per server, links %.0f Mbit/s, failure timeout "
                        + "%d ms%n%-9s %-5s %-3s %-7s %9s %9s %8s %6s %8s %7s %s%n", o.shape(), o.mode().label(),
                o.ratioS(), o.mbPerServer(), o.linkMbps(), failureTimeoutMs, "failed", "at", "R", "victim", "T (s)",
                "time (s)", "stretch", "bound", "restarts", "repairs", "correct"));
        for (FailureBenchRunner.Row r : rows) {
            b.append(String.format(Locale.ROOT, "%-9s %-5.2f %-3d %-7s %9.2f %9.2f %8.2f %6s %8d %7d %s%n",
                    r.failed().label(), r.at(), r.reducers(), r.victim(), r.baselineSeconds(), r.seconds(),
                    r.stretch(), Double.isFinite(r.boundStretch())
                            ? String.format(Locale.ROOT, "%.2f", r.boundStretch()) : "-",
                    r.restarts(), r.repairs(), r.correct() ? "yes" : "NO"));
        }
        return b.toString();
    }

    private static String toCsv(List<FailureBenchRunner.Row> rows) {
        StringBuilder b = new StringBuilder("failed,at,reducers,victim,baseline_seconds,seconds,stretch,"
                + "bound_stretch,restarts,repairs,correct\n");
        for (FailureBenchRunner.Row r : rows) {
            b.append(String.format(Locale.ROOT, "%s,%.2f,%d,\"%s\",%.3f,%.3f,%.3f,%s,%d,%d,%s%n", r.failed().label(),
                    r.at(), r.reducers(), r.victim(), r.baselineSeconds(), r.seconds(), r.stretch(),
                    Double.isFinite(r.boundStretch()) ? String.format(Locale.ROOT, "%.3f", r.boundStretch()) : "",
                    r.restarts(), r.repairs(), r.correct()));
        }
        return b.toString();
    }

    /**
     * Stretch against failure time, a line per (R, victim), as the paper's Figure 9; at R=1 each with its network bound
     * dashed.
     */
    private static void plot(List<FailureBenchRunner.Row> rows, Path file) throws java.io.IOException {
        System.setProperty("java.awt.headless", "true");
        XYChart chart = new XYChartBuilder().width(1000).height(560)
                .title("Failure during the shuffle (paper Figure 9)").xAxisTitle("failure time / T")
                .yAxisTitle("shuffle and reduce time / T").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        List<String> names = rows.stream().map(r -> "R=" + r.reducers() + " " + r.failed().label()).distinct().toList();
        for (int i = 0; i < names.size(); i++) {
            String series = names.get(i);
            Color colour = PALETTE[i % PALETTE.length];
            List<FailureBenchRunner.Row> mine = rows.stream()
                    .filter(r -> series.equals("R=" + r.reducers() + " " + r.failed().label())).toList();
            double[] at = mine.stream().mapToDouble(FailureBenchRunner.Row::at).toArray();
            XYSeries measured = chart.addSeries(series, at,
                    mine.stream().mapToDouble(FailureBenchRunner.Row::stretch).toArray());
            measured.setLineColor(colour);
            measured.setMarkerColor(colour);
            double[] bound = mine.stream().mapToDouble(FailureBenchRunner.Row::boundStretch).toArray();
            if (java.util.Arrays.stream(bound).allMatch(Double::isFinite)) {
                XYSeries floor = chart.addSeries(series + ", network bound", at, bound);
                floor.setLineStyle(SeriesLines.DASH_DASH);
                floor.setLineColor(colour);
                floor.setMarkerColor(colour);
                floor.setMarker(SeriesMarkers.NONE);
            }
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
