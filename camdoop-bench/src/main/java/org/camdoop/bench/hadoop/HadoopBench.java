package org.camdoop.bench.hadoop;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code camdoop bench hadoop}: the unmodified examples wordcount and sort, each with the stock shuffle and with
 * Camdoop, on one MiniMRYarnCluster, side by side. Parses and validates; {@link HadoopBenchRunner} runs the jobs.
 * Exit status 0 when every output matched, 1 when a program failed, a Camdoop job fell back to the stock shuffle or
 * the outputs differ, 2 for bad arguments.
 */
@Command(name = "hadoop", mixinStandardHelpOptions = true,
        description = {
            "End to end against the stock Hadoop shuffle on a MiniMRYarnCluster (3 NodeManagers, 27-daemon 3x3x3 torus,"
                + " local file system): randomtextwriter, then wordcount with the stock shuffle and with Camdoop;"
                + " randomwriter, then sort with each. Unmodified hadoop-mapreduce-examples; the Camdoop jobs differ"
                + " only in their -D job keys. The outputs must match and the Camdoop jobs must not fall back.",
            "Figures per job, from its JobHistory file: job s (launch to finish); shuffle+reduce s (last map's finish"
                + " to the job's finish); network bytes (stock: bytes the reduces fetched from maps on another"
                + " NodeManager, exact from the reduce tasks' Fetcher log lines, else ESTIMATED from the counters;"
                + " camdoop: bytes sent on torus links between distinct servers, once per hop); reduce disk bytes"
                + " (FILE_BYTES_WRITTEN of the reduce tasks, job output included), output bytes and disk net of output;"
                + " ratio rows camdoop/stock. See docs/benchmarks-hadoop.md.",
            "One machine, loopback, unshaped links: compare the bytes, not the times.",
            ""})
public final class HadoopBench implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--quick",
            description = "Small inputs: 24 MiB wordcount, 16 MiB sort, 3 maps, 3 reduces (about 4 minutes).")
    boolean quick;

    @Option(names = "--wordcount-mb", paramLabel = "MB",
            description = "randomtextwriter corpus for wordcount, MiB (default 512, --quick 24).")
    Integer wordcountMb;

    @Option(names = "--sort-mb", paramLabel = "MB",
            description = "randomwriter output for sort, MiB (default 256, --quick 16).")
    Integer sortMb;

    @Option(names = "--maps", paramLabel = "N",
            description = "Maps of each generator = input files = maps of each job (default 6, --quick 3).")
    Integer maps;

    @Option(names = "--reduces", paramLabel = "N", description = "Reduces of each job (default 3, --quick 3).")
    Integer reduces;

    @Option(names = "--work", paramLabel = "DIR",
            description = "Directory for the cluster, the inputs and outputs and programs.log (default:"
                    + " camdoop-bench-hadoop-PID in the temporary directory).")
    Path work;

    @Option(names = "--out", paramLabel = "DIR", description = "Also write the rows as DIR/hadoop-bench.csv.")
    Path out;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        BenchSizes sizes = BenchSizes.of(quick, wordcountMb, sortMb, maps, reduces);
        if (out != null && Files.exists(out) && !Files.isDirectory(out)) {
            throw new IllegalArgumentException("--out " + out + " is not a directory");
        }
        Path dir = work != null ? work : Path.of(System.getProperty("java.io.tmpdir"),
                "camdoop-bench-hadoop-" + ProcessHandle.current().pid());
        Optional<Path> auxJar = Optional.ofNullable(System.getenv("CAMDOOP_HADOOP_JAR")).filter(s -> !s.isBlank())
                .map(Path::of);
        BenchReport report = new HadoopBenchRunner(sizes, dir, auxJar, System.err).run();
        if (out != null) {
            Files.createDirectories(out);
            Files.writeString(out.resolve("hadoop-bench.csv"), report.csv());
        }
        PrintWriter w = spec.commandLine().getOut();
        w.print(json ? report.json() + System.lineSeparator() : report.table());
        w.flush();
        return 0;
    }
}
