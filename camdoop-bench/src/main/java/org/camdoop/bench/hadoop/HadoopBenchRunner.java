package org.camdoop.bench.hadoop;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.camdoop.minicluster.ExamplesProcess;
import org.camdoop.minicluster.MiniCluster;
import org.camdoop.minicluster.PluginKeys;
import org.camdoop.torus.topology.TorusShape;

/**
 * Runs the benchmark on ONE mini cluster (3 NodeManagers with Camdoop daemons, 24 forwarding-only daemons filling the
 * 3x3x3 torus), in sequence: randomtextwriter, wordcount stock, wordcount Camdoop, randomwriter, sort stock, sort
 * Camdoop. Stock and Camdoop jobs differ only in the Camdoop job keys given with {@code -D}. The examples programs'
 * own output goes to {@code work/programs.log}; progress lines to {@code progress}.
 */
final class HadoopBenchRunner {

    static final int NODES = 3;
    static final TorusShape SHAPE = TorusShape.parse("3x3x3");
    private static final String WHO = "camdoop bench hadoop";
    /** Keeps one split per input file (the local file system's 32 MB blocks would split bigger files). */
    private static final String ONE_SPLIT_PER_FILE = "-Dmapreduce.input.fileinputformat.split.minsize=" + (1L << 40);

    private final BenchSizes sizes;
    private final Path work;
    private final Optional<Path> auxServiceJar;
    private final PrintStream progress;
    private final long start = System.nanoTime();

    HadoopBenchRunner(BenchSizes sizes, Path work, Optional<Path> auxServiceJar, PrintStream progress) {
        this.sizes = sizes;
        this.work = work;
        this.auxServiceJar = auxServiceJar;
        this.progress = progress;
    }

    /**
     * Runs everything and returns the measured rows.
     *
     * @throws IllegalStateException (one line) when a program fails, a Camdoop job fell back to the stock shuffle, or
     *     the outputs of the two shuffles differ
     */
    BenchReport run() throws IOException, InterruptedException {
        Files.createDirectories(work);
        step("starting " + NODES + " NodeManagers and the " + SHAPE + " torus");
        try (PrintStream log = new PrintStream(Files.newOutputStream(work.resolve("programs.log")), true);
                MiniCluster cluster = MiniCluster.start(NODES, SHAPE, true, work, auxServiceJar, progress, WHO)) {
            step("cluster up, " + cluster.forwardingDaemons() + " forwarding-only daemons; programs log to "
                    + work.resolve("programs.log"));
            Path confDir = cluster.writeClientConf(work.resolve("client-conf"), false);
            List<JobFigures> rows = new ArrayList<>();

            Path corpus = work.resolve("corpus");
            runProgram(cluster, confDir, log, "randomtextwriter", List.of("randomtextwriter",
                    "-Dmapreduce.randomtextwriter.totalbytes=" + sizes.bytesPerMap(sizes.wordcountMb()) * sizes.maps(),
                    "-Dmapreduce.randomtextwriter.bytespermap=" + sizes.bytesPerMap(sizes.wordcountMb()),
                    "-outFormat", "org.apache.hadoop.mapreduce.lib.output.TextOutputFormat", corpus.toString()));
            Path wcStock = work.resolve("wordcount-stock");
            Path wcCamdoop = work.resolve("wordcount-camdoop");
            rows.add(measured(cluster, confDir, log, "wordcount", false, List.of(ONE_SPLIT_PER_FILE,
                    "-Dmapreduce.job.reduces=" + sizes.reduces(), corpus.toString(), wcStock.toString())));
            rows.add(measured(cluster, confDir, log, "wordcount", true, List.of(ONE_SPLIT_PER_FILE,
                    "-Dmapreduce.job.reduces=" + sizes.reduces(), corpus.toString(), wcCamdoop.toString())));
            fail("wordcount", OutputsMatch.sameBytes(wcStock, wcCamdoop));

            Path random = work.resolve("random");
            runProgram(cluster, confDir, log, "randomwriter", List.of("randomwriter",
                    "-Dmapreduce.randomwriter.totalbytes=" + sizes.bytesPerMap(sizes.sortMb()) * sizes.maps(),
                    "-Dmapreduce.randomwriter.bytespermap=" + sizes.bytesPerMap(sizes.sortMb()), random.toString()));
            Path sortStock = work.resolve("sort-stock");
            Path sortCamdoop = work.resolve("sort-camdoop");
            rows.add(measured(cluster, confDir, log, "sort", false, List.of(ONE_SPLIT_PER_FILE,
                    "-r", Integer.toString(sizes.reduces()), random.toString(), sortStock.toString())));
            rows.add(measured(cluster, confDir, log, "sort", true, List.of(ONE_SPLIT_PER_FILE,
                    "-r", Integer.toString(sizes.reduces()), random.toString(), sortCamdoop.toString())));
            fail("sort", OutputsMatch.sameRecords(sortStock, sortCamdoop));
            step("done");
            return new BenchReport(sizes, rows);
        }
    }

    /** Runs {@code job} with {@code args} (generic options first) and reads its figures from the JobHistory. */
    private JobFigures measured(MiniCluster cluster, Path confDir, PrintStream log, String job, boolean camdoop,
            List<String> args) throws IOException, InterruptedException {
        List<String> program = new ArrayList<>(List.of(job));
        if (camdoop) {
            program.addAll(PluginKeys.jobOptions());
        }
        // Both shuffles get it (Camdoop's reduces have no Fetcher to log), so the jobs differ only in the Camdoop keys.
        program.add(FetcherLogs.LOGGING_OPTION);
        program.addAll(args);
        String name = job + ", " + (camdoop ? "Camdoop" : "stock shuffle");
        String jobId = runProgram(cluster, confDir, log, name, program);
        JobFigures figures = JobHistoryFigures.of(cluster.config(), work.resolve("cluster"), jobId, job, camdoop);
        if (camdoop && figures.stockFallbacks() > 0) {
            throw new IllegalStateException(name + " (" + jobId + ") fell back to the stock shuffle in "
                    + figures.stockFallbacks() + " reduce attempt(s); see " + work.resolve("programs.log"));
        }
        if (camdoop && figures.camdoopReceived() == 0) {
            throw new IllegalStateException(name + " (" + jobId + "): the reducers received nothing from Camdoop");
        }
        step(String.format(Locale.ROOT, "%s: job %.1f s, shuffle+reduce %.1f s, network %d bytes (%s)",
                name, figures.jobSeconds(), figures.shuffleReduceSeconds(), figures.networkBytes(),
                figures.networkSource()));
        return figures;
    }

    /** Runs one examples program; returns the id of its (last) job. */
    private String runProgram(MiniCluster cluster, Path confDir, PrintStream log, String name, List<String> program)
            throws IOException, InterruptedException {
        step(name + ": running");
        log.println("=== " + String.join(" ", program));
        ExamplesProcess.Outcome outcome = cluster.runExamples(confDir, program, log, log);
        if (outcome.exit() != 0 || outcome.jobs().isEmpty()) {
            throw new IllegalStateException(name + " failed (exit " + outcome.exit() + "); see "
                    + work.resolve("programs.log"));
        }
        step(String.format(Locale.ROOT, "%s: finished in %.1f s", name, outcome.seconds()));
        return outcome.jobs().get(outcome.jobs().size() - 1);
    }

    private static void fail(String job, Optional<String> mismatch) {
        mismatch.ifPresent(m -> {
            throw new IllegalStateException(job + ": the Camdoop output differs from the stock output: " + m);
        });
    }

    private void step(String what) {
        progress.printf(Locale.ROOT, "%s [%6.1f s] %s%n", WHO, (System.nanoTime() - start) / 1e9, what);
    }
}
