package org.camdoop.bench.micro;

import java.util.Collection;
import java.util.List;
import java.util.Locale;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;

/**
 * The figures derived from a JMH run: merge input rate per core in records/s, MB/s and Gbit/s beside the paper's
 * 2.41-3.15 Gbit/s, frames/s and GB/s of the codec, and milliseconds of tree computation per shape. MB and GB are
 * 10^6 and 10^9 bytes. Each row also gives JMH's 99.9% confidence half-width as a share of the score ("n/a" with
 * fewer than 3 measured iterations, as with {@code --quick}); the absolute errors are in JMH's output and the CSV.
 */
final class MicroSummary {
    /** The C# reduce path of the paper's prototype (section 5.1), per core. */
    static final String PAPER_GBPS = "2.41-3.15";

    private final SummaryTable merge = new SummaryTable(
            "Merge (+ combine) on one core, input side (paper's C# reduce path: " + PAPER_GBPS + " Gbit/s)",
            "benchmark", "fan-in", "S", "records/s", "MB/s", "Gbit/s", "error");
    private final SummaryTable frames = new SummaryTable("DATA frame codec",
            "benchmark", "payload bytes", "frames/s", "GB/s", "error");
    private final SummaryTable trees = new SummaryTable("Tree computation",
            "benchmark", "shape", "us", "ms", "error");

    MicroSummary(Collection<RunResult> results) {
        for (RunResult r : results) {
            String benchmark = r.getParams().getBenchmark();
            String method = benchmark.substring(benchmark.lastIndexOf('.') + 1);
            Result<?> primary = r.getPrimaryResult();
            if (benchmark.contains(MergeCombineBenchmark.class.getSimpleName() + ".")) {
                double records = secondary(r, "inputRecords");
                double bytes = secondary(r, "inputBytes");
                merge.add(method, r.getParams().getParam("fanIn"), r.getParams().getParam("ratioS"),
                        format("%,.0f", records), format("%,.1f", bytes / 1e6), format("%.2f", bytes * 8 / 1e9),
                        relativeError(r.getSecondaryResults().get("inputRecords")));
            } else if (benchmark.contains(FrameCodecBenchmark.class.getSimpleName() + ".")) {
                frames.add(method, r.getParams().getParam("payloadBytes"), format("%,.0f", primary.getScore()),
                        format("%.2f", secondary(r, "frameBytes") / 1e9), relativeError(primary));
            } else if (benchmark.contains(TreeComputationBenchmark.class.getSimpleName() + ".")) {
                // AverageTime in microseconds per operation.
                trees.add(method, r.getParams().getParam("shape"), format("%,.1f", primary.getScore()),
                        format("%.3f", primary.getScore() / 1000), relativeError(primary));
            }
        }
    }

    private static double secondary(RunResult r, String counter) {
        Result<?> result = r.getSecondaryResults().get(counter);
        if (result == null) {
            throw new IllegalStateException(r.getParams().getBenchmark() + " reported no " + counter + " counter");
        }
        return result.getScore();
    }

    /** The confidence half-width as a share of the score, e.g. "±4%". */
    private static String relativeError(Result<?> result) {
        double error = result.getScoreError();
        return Double.isNaN(error) || result.getScore() == 0 ? "n/a"
                : format("±%.0f%%", 100 * error / result.getScore());
    }

    private static String format(String pattern, double value) {
        return String.format(Locale.ROOT, pattern, value);
    }

    private List<SummaryTable> tables() {
        return List.of(merge, frames, trees).stream().filter(t -> !t.isEmpty()).toList();
    }

    /** The tables for the console. */
    String toText() {
        StringBuilder s = new StringBuilder();
        for (SummaryTable t : tables()) {
            s.append('\n').append(t.toText());
        }
        return s.toString();
    }

    /** The tables as Markdown, under {@code heading} (one paragraph naming the run). */
    String toMarkdown(String heading) {
        StringBuilder s = new StringBuilder("## Camdoop microbenchmarks\n\n").append(heading).append("\n");
        for (SummaryTable t : tables()) {
            s.append('\n').append(t.toMarkdown());
        }
        return s.toString();
    }
}
