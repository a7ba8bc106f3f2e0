package org.camdoop.bench.paper;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code camdoop bench paper}: the paper's testbed experiments (section 5.2 Figures 5 and 7(a,b), section 5.5 Figure
 * 10) on a 27-server embedded torus with shaped links, every point in the three modes side by side, and the switch
 * lower bounds beside them. Writes {@code results.csv}, one PNG per figure and {@code summary.md} into the output
 * directory and prints the summary. Exit status 0, 1 if a shuffle failed or gave a wrong answer, 2 for bad arguments.
 */
@Command(name = "paper", mixinStandardHelpOptions = true,
        description = {
            "The paper's testbed figures on a 3x3x3 embedded torus (one JVM, 27 daemons, real transport over in-JVM"
                + " channels), every link shaped so the network is the bottleneck: Figure 5 (S = 0..1 for R=1 and"
                + " R=27), Figure 7(a,b) (R = 1, 3, 9, 27 for S=1 and S=0) and Figure 10 (20 KB and 200 KB per"
                + " server, S=0, R=1), each in modes camdoop, noagg and direct, with the 'Switch 1 link' and"
                + " 'Switch 6 links' lower bounds.",
            "Writes results.csv, figure*.png (log-scale time, as in the paper) and summary.md (our speed-ups beside"
                + " the paper's) into --out, and prints the summary. See docs/benchmarks.md.",
            ""})
public final class PaperBench implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--quick", description = "Fewer points, smaller data, faster links: about 3 minutes instead of ~30.")
    boolean quick;

    @Option(names = "--out", defaultValue = "bench-paper", paramLabel = "DIR",
            description = "Output directory, created if missing (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--mb-per-server", paramLabel = "M",
            description = "Override the preset's map output per server for Figures 5 and 7, in MB.")
    Double mbPerServer;

    @Option(names = "--link-mbps", paramLabel = "L", description = "Override the preset's link rate, Mbit/s.")
    Double linkMbps;

    @Option(names = "--segment-bytes", paramLabel = "B", description = "Override the preset's transport segment.")
    Integer segmentBytes;

    @Option(names = "--quiet", description = "No progress lines on stderr.")
    boolean quiet;

    /** The validated plan; throws IllegalArgumentException (exit 2) naming the bad value. */
    PaperPlan plan() {
        PaperPlan preset = quick ? PaperPlan.quick() : PaperPlan.full();
        return preset.with(mbPerServer != null ? mbPerServer : preset.mbPerServer(),
                linkMbps != null ? linkMbps : preset.linkMbps(),
                segmentBytes != null ? segmentBytes : preset.segmentBytes());
    }

    @Override
    public Integer call() throws Exception {
        PaperPlan plan = plan();
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Files.createDirectories(out);
        if (!quiet) {
            err.printf("bench paper: %d points (%s), output in %s%n", plan.points().size(), quick ? "quick" : "full",
                    out.toAbsolutePath());
            err.flush();
        }
        PaperResults results;
        try {
            results = new PaperSweep(plan, quiet ? Optional.empty() : Optional.of(err)).run();
        } catch (IllegalStateException e) {
            err.println("camdoop bench paper: " + e.getMessage());
            return 1;
        }
        String summary = writeOutputs(results, out, quick ? "--quick" : "full");
        stdout.print(summary);
        stdout.printf("Wrote %s, the plots and %s%n", out.resolve(CSV_FILE), out.resolve(SUMMARY_FILE));
        stdout.flush();
        return 0;
    }

    static final String CSV_FILE = "results.csv";
    static final String SUMMARY_FILE = "summary.md";

    /** Writes the CSV, one PNG per figure and the summary into {@code out}; returns the summary. */
    static String writeOutputs(PaperResults results, Path out, String preset) throws java.io.IOException {
        PaperCsv.write(results, out.resolve(CSV_FILE));
        PaperCharts.write(results, out);
        String summary = PaperReport.markdown(results, preset);
        Files.writeString(out.resolve(SUMMARY_FILE), summary, StandardCharsets.UTF_8);
        return summary;
    }
}
