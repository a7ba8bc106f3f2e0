package org.camdoop.bench.hadoop;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.camdoop.workload.KeyModel;
import org.camdoop.workload.TextCorpus;

/**
 * Runs {@code bench cluster} on a testbed that is up: writes the Zipf corpus, then in sequence wordcount stock and
 * Camdoop, randomwriter, sort stock and Camdoop, teragen, terasort stock and Camdoop, each through the testbed's
 * {@code run} (the job client on the master, the unmodified examples jar). Each measured job is bracketed by two
 * {@link TestbedCounters} snapshots; its times and disk bytes come from its JobHistory file. Programs' output goes to
 * {@code work/programs.log}, progress lines to {@code progress}.
 */
final class ClusterBenchRunner {

    private static final String WHO = "camdoop bench cluster";
    private static final Pattern JOB_ID = Pattern.compile("Running job: (job_\\d+_\\d+)");
    /** Keeps one split per input file (the local file system's 32 MB blocks would split bigger files). */
    private static final String ONE_SPLIT_PER_FILE = "-Dmapreduce.input.fileinputformat.split.minsize=" + (1L << 40);

    private final ClusterBench.Sizes sizes;
    private final Path testbedScript;
    private final Path testbedDir;
    private final Path work;
    private final PrintStream progress;
    private final long start = System.nanoTime();

    ClusterBenchRunner(ClusterBench.Sizes sizes, Path testbedScript, Path testbedDir, Path work, PrintStream progress) {
        this.sizes = sizes;
        this.testbedScript = testbedScript;
        this.testbedDir = testbedDir;
        this.work = work;
        this.progress = progress;
    }

    ClusterReport run() throws IOException, InterruptedException {
        if (!Files.isRegularFile(testbedDir.resolve("hadoop-dist"))) {
            throw new IllegalStateException("no testbed with Hadoop is up in " + testbedDir
                    + ": run scripts/camdoop testbed up");
        }
        int linkMbps = Integer.parseInt(Files.readString(testbedDir.resolve("link-mbps")).trim());
        int nodeManagers = Files.readAllLines(testbedDir.resolve("nodemanagers")).size();
        Files.createDirectories(work);
        Configuration history = new Configuration(false);
        history.addResource(new org.apache.hadoop.fs.Path(testbedDir.resolve("hadoop/conf/mapred-site.xml").toUri()));
        List<ClusterReport.Row> rows = new ArrayList<>();
        try (PrintStream log = new PrintStream(Files.newOutputStream(work.resolve("programs.log")), true,
                StandardCharsets.UTF_8)) {
            Path corpus = work.resolve("corpus");
            step(String.format(Locale.ROOT, "writing %d MiB of text in %d files: Zipf %.2f over %d words", sizes
                    .wordcountMb(), sizes.maps(), sizes.zipf(), sizes.vocabulary()));
            TextCorpus.Written written = TextCorpus.write(new TextCorpus.Spec(sizes.maps(),
                    (long) sizes.wordcountMb() << 20, new KeyModel.Zipf(sizes.vocabulary(), sizes.zipf()), 2012),
                    corpus);
            step(String.format(Locale.ROOT, "corpus: %d words in %d lines", written.words(), written.lines()));
            String reduces = "-Dmapreduce.job.reduces=" + sizes.reduces();
            for (boolean camdoop : new boolean[] {false, true}) {
                rows.add(measured(log, history, "wordcount", camdoop, List.of("wordcount", ONE_SPLIT_PER_FILE, reduces,
                        corpus.toString(), out("wordcount", camdoop).toString())));
            }
            mismatch("wordcount", OutputsMatch.sameBytes(out("wordcount", false), out("wordcount", true)));

            Path random = work.resolve("random");
            long sortBytes = (long) sizes.sortMb() << 20;
            program(log, "randomwriter", List.of("randomwriter",
                    "-Dmapreduce.randomwriter.totalbytes=" + sortBytes,
                    "-Dmapreduce.randomwriter.bytespermap=" + sortBytes / sizes.maps(), random.toString()));
            for (boolean camdoop : new boolean[] {false, true}) {
                rows.add(measured(log, history, "sort", camdoop, List.of("sort", ONE_SPLIT_PER_FILE, "-r",
                        Integer.toString(sizes.reduces()), random.toString(), out("sort", camdoop).toString())));
            }
            mismatch("sort", OutputsMatch.sameRecords(out("sort", false), out("sort", true)));

            Path tera = work.resolve("tera");
            program(log, "teragen", List.of("teragen", "-Dmapreduce.job.maps=" + sizes.maps(),
                    Long.toString(((long) sizes.terasortMb() << 20) / 100), tera.toString()));
            for (boolean camdoop : new boolean[] {false, true}) {
                Path o = out("terasort", camdoop);
                // TeraSort opens _partition.lst relative to the job's working directory; on the testbed's shared
                // file:/// that is the output directory, where TeraSort writes it (see docs/testbed.md).
                rows.add(measured(log, history, "terasort", camdoop, List.of("terasort", reduces,
                        "-Dmapreduce.job.working.dir=" + o, tera.toString(), o.toString())));
            }
            mismatch("terasort", OutputsMatch.sameBytes(out("terasort", false), out("terasort", true)));
        }
        step("done");
        return new ClusterReport(sizes, linkMbps, nodeManagers, rows);
    }

    private Path out(String job, boolean camdoop) {
        return work.resolve(job + "-" + (camdoop ? "camdoop" : "stock"));
    }

    private ClusterReport.Row measured(PrintStream log, Configuration history, String job, boolean camdoop,
            List<String> program) throws IOException, InterruptedException {
        String name = job + ", " + (camdoop ? "Camdoop" : "stock shuffle");
        TestbedCounters before = TestbedCounters.read();
        long t0 = System.nanoTime();
        String jobId = run(log, name, camdoop, program);
        double clientSeconds = (System.nanoTime() - t0) / 1e9;
        TestbedCounters during = TestbedCounters.read().minus(before);
        JobFigures figures = JobHistoryFigures.of(history, testbedDir.resolve("hosts"), jobId, job, camdoop);
        if (camdoop && figures.stockFallbacks() > 0) {
            throw new IllegalStateException(name + " (" + jobId + ") fell back to the stock shuffle in "
                    + figures.stockFallbacks() + " reduce attempt(s); see " + work.resolve("programs.log"));
        }
        ClusterReport.Row row = new ClusterReport.Row(figures, during, clientSeconds);
        step(String.format(Locale.ROOT, "%s: job %.1f s, shuffle+reduce %.1f s, CPU %.0f%% of the cores, torus %.1f MB,"
                + " switch %.1f MB", name, figures.jobSeconds(), figures.shuffleReduceSeconds(),
                100 * during.cpuShare(), during.torusBytes() / 1e6, during.switchBytes() / 1e6));
        return row;
    }

    private void program(PrintStream log, String name, List<String> program) throws IOException, InterruptedException {
        run(log, name, false, program);
    }

    /** Runs one examples program through {@code testbed run}; returns the id of its (last) job. */
    private String run(PrintStream log, String name, boolean camdoop, List<String> program)
            throws IOException, InterruptedException {
        step(name + ": running");
        List<String> command = new ArrayList<>(List.of(testbedScript.toString(), "run"));
        if (!camdoop) {
            command.add("--stock");
        }
        command.add("--");
        command.addAll(program);
        log.println("=== " + String.join(" ", command));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("CAMDOOP_TESTBED_DIR", testbedDir.toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        log.print(out);
        int exit = p.waitFor();
        Matcher m = JOB_ID.matcher(out);
        String jobId = null;
        while (m.find()) {
            jobId = m.group(1);
        }
        if (exit != 0 || jobId == null) {
            throw new IllegalStateException(name + " failed (exit " + exit + "); see " + work.resolve("programs.log"));
        }
        return jobId;
    }

    private static void mismatch(String job, Optional<String> difference) {
        difference.ifPresent(d -> {
            throw new IllegalStateException(job + ": the Camdoop output differs from the stock output: " + d);
        });
    }

    private void step(String what) {
        progress.printf(Locale.ROOT, "%s [%6.1f s] %s%n", WHO, (System.nanoTime() - start) / 1e9, what);
    }
}
