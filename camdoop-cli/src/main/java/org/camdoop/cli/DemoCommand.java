package org.camdoop.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.camdoop.cli.demo.DemoLogs;
import org.camdoop.cli.demo.DemoSummary;
import org.camdoop.cli.demo.WordCountDemo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code camdoop demo}: the first thing a user runs. Stock WordCount with Hadoop's shuffle and with Camdoop on a mini
 * cluster, outputs compared, one small table.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Generate a Zipf text corpus, run the unmodified examples wordcount on a MiniMRYarnCluster (3"
                + " NodeManagers, a 3x3x3 torus of Camdoop daemons) with Hadoop's own shuffle and then with Camdoop,"
                + " check the two outputs are identical byte for byte, and print a table:",
            "  job s          wall time of the job",
            "  reduce s       total reduce-task time (MILLIS_REDUCES: shuffle, merge and reduce, including a"
                + " reducer's wait for the last maps; map finish times are not available)",
            "  reducer bytes  bytes the reducer received (stock: REDUCE_SHUFFLE_BYTES; camdoop: Bytes the reducer"
                + " received)",
            "  torus bytes    bytes sent on torus links (camdoop only)",
            "  ratio          reducer bytes / bytes the map outputs held (stock: MAP_OUTPUT_MATERIALIZED_BYTES)",
            "Progress and the jobs' logs go to stderr. Exit 0 if both jobs succeeded and the outputs are identical,"
                + " 1 otherwise.",
            "The NodeManagers load the aux service from the shaded camdoop-hadoop jar when $CAMDOOP_HADOOP_JAR names"
                + " it, else from this tool's class path."})
public final class DemoCommand implements Callable<Integer> {

    /** Beyond this the demo stops being a demo on a small machine. */
    static final int MAX_MB = 512;

    @Spec
    CommandSpec spec;

    @Option(names = "--mb", defaultValue = "12", paramLabel = "MB",
            description = "Corpus size in MB, 1 to " + MAX_MB + " (default: ${DEFAULT-VALUE}: about 75 s for"
                    + " both runs, clusters included, on 2 cores).")
    int mb;

    @Option(names = "--work", paramLabel = "DIR",
            description = "Directory for the corpus, the outputs and the clusters' files; kept (default: a new"
                    + " temporary directory, removed at the end).")
    Path work;

    @Option(names = "--keep", description = "Keep the temporary work directory and print where it is.")
    boolean keep;

    @Option(names = "--json", description = "Print the summary as one JSON object instead of the table.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        if (mb < 1 || mb > MAX_MB) {
            throw new IllegalArgumentException("--mb must be between 1 and " + MAX_MB + ", got " + mb);
        }
        Path dir = work != null ? work : Files.createTempDirectory("camdoop-demo-");
        boolean remove = work == null && !keep;
        Optional<Path> auxJar = Optional.ofNullable(System.getenv(MiniClusterCommand.AUX_JAR_ENV))
                .filter(s -> !s.isBlank()).map(Path::of);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        // Kept when the work directory is removed: they are what to read when something went wrong.
        Path logs = work != null ? Files.createDirectories(dir.resolve("logs"))
                : Files.createTempDirectory("camdoop-demo-logs-");
        DemoLogs.redirect(logs.resolve("hadoop.log"));
        err.println("camdoop demo: Hadoop's logging and the programs' output go to " + logs);
        err.flush();
        try (PrintStream programs = new PrintStream(Files.newOutputStream(logs.resolve("programs.log")), true,
                StandardCharsets.UTF_8)) {
            DemoSummary summary = new WordCountDemo(dir, (long) mb << 20, auxJar, System.err, programs).run();
            out.print(json ? summary.toJson() + "\n" : summary.table());
            out.flush();
            if (!summary.outputsIdentical()) {
                err.println("camdoop demo: the Camdoop output differs from the stock output"
                        + (remove ? " (rerun with --keep to compare them)" : " (both are in " + dir + ")"));
                return CamdoopCli.FAILED;
            }
            return 0;
        } finally {
            if (remove) {
                WordCountDemo.delete(dir);
            } else {
                err.println("camdoop demo: files kept in " + dir);
            }
        }
    }
}
