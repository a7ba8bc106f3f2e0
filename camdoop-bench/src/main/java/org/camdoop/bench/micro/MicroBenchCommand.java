package org.camdoop.bench.micro;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.NoBenchmarksException;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code camdoop bench micro}: runs this package's JMH benchmarks through JMH's Java API, then prints a summary of the
 * derived figures (and with {@code --out}, writes JMH's CSV and the summary as Markdown). JMH prints its own progress.
 * Exit status 0 on success, 1 if a benchmark failed, 2 for bad arguments.
 */
@Command(name = "micro", mixinStandardHelpOptions = true,
        description = {
            "JMH microbenchmarks on one core: merge + combine of sorted Text/IntWritable runs (Text.Comparator,"
                + " IntSumReducer) at fan-in 6 and 27 and S 0 and 1, and merge only; DATA frame encode and decode with"
                + " 64 KiB and 8 KiB payloads; the six disjoint trees and one server's shuffle plan on 8x8x8 and"
                + " 16x16x16.",
            "Prints JMH's results, then a summary: merge input Gbit/s per core beside the paper's 2.41-3.15,"
                + " frames/s, tree ms. See docs/benchmarks-micro.md.",
            ""})
public final class MicroBenchCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--quick", description = "Short warm-up and measurement: under 2 minutes instead of about 6.")
    boolean quick;

    @Option(names = "--include", paramLabel = "REGEX",
            description = "Only the benchmarks whose full name matches (e.g. MergeCombine, 'FrameCodec.*decode').")
    String include;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Also write DIR/micro.csv (JMH's CSV) and DIR/micro-summary.md; DIR is created if missing.")
    Path out;

    /** The validated settings; throws IllegalArgumentException (exit 2) naming the bad option. */
    MicroRunSettings settings() {
        String regex = include == null ? MicroRunSettings.ALL : include;
        try {
            Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("--include '" + regex + "' is not a regular expression: "
                    + e.getDescription());
        }
        if (out != null && Files.exists(out) && !Files.isDirectory(out)) {
            throw new IllegalArgumentException("--out " + out + " exists and is not a directory");
        }
        return new MicroRunSettings(quick, regex, Optional.ofNullable(out).map(d -> d.resolve("micro.csv")));
    }

    @Override
    public Integer call() throws IOException {
        MicroRunSettings settings = settings();
        if (out != null) {
            Files.createDirectories(out);
        }
        PrintWriter console = spec.commandLine().getOut();
        Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        double loadBefore = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        Collection<RunResult> results;
        try {
            results = new Runner(settings.toOptions()).run();
        } catch (NoBenchmarksException e) {
            throw new IllegalArgumentException("no benchmark matches --include '" + settings.include() + "'");
        } catch (RunnerException e) {
            throw new IllegalStateException("a benchmark failed: " + e.getMessage(), e);
        }
        MicroSummary summary = new MicroSummary(results);
        console.print(summary.toText());
        if (out != null) {
            String heading = "Run started " + started + " on " + Runtime.getRuntime().availableProcessors()
                    + " cores, Java " + System.getProperty("java.version") + "; " + settings.describe()
                    + ". Load average " + loadAverage(loadBefore) + " at the start, "
                    + loadAverage(ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage())
                    + " at the end (more than the core count means the benchmarks shared their cores).";
            Path markdown = out.resolve("micro-summary.md");
            Files.writeString(markdown, summary.toMarkdown(heading), StandardCharsets.UTF_8);
            console.println("\nwrote " + settings.csv().orElseThrow() + " and " + markdown);
        }
        console.flush();
        return 0;
    }

    /** The one-minute load average, or "n/a" where the OS does not report it. */
    private static String loadAverage(double load) {
        return load < 0 ? "n/a" : String.format(Locale.ROOT, "%.1f", load);
    }
}
