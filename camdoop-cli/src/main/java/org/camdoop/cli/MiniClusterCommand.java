package org.camdoop.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.camdoop.minicluster.MiniClusterOptions;
import org.camdoop.minicluster.MiniClusterResult;
import org.camdoop.minicluster.MiniClusterRunner;
import org.camdoop.torus.topology.TorusShape;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code camdoop minicluster}: try Camdoop (or the stock shuffle) on a MiniMRYarnCluster with an unmodified
 * hadoop-mapreduce-examples program. Users try us with it and our checks parse its last line, so the interface and
 * the JSON format are fixed.
 */
@Command(name = "minicluster", mixinStandardHelpOptions = true,
        description = {"Run an unmodified hadoop-mapreduce-examples 3.4.2 program (wordcount, sort, randomtextwriter,"
                + " terasort, ...) on a MiniMRYarnCluster on the local file system: N NodeManagers, each with a"
                + " Camdoop daemon, plus forwarding-only daemons filling the torus. Paths are local paths.",
            "Progress and the program's log go to stderr; the last stdout line is one JSON object:",
            "{\"exit\": code, \"seconds\": s, \"counters\": {\"NAME\": value, ...}, \"jobs\": [\"job_...\", ...]}"
                + " (counters of the program's last job).",
            "The NodeManagers load the aux service from the shaded camdoop-hadoop jar when $CAMDOOP_HADOOP_JAR names"
                + " it, else from this tool's class path.",
            "Example: camdoop minicluster --stock -- wordcount in out"})
public final class MiniClusterCommand implements Callable<Integer> {

    /** Names the shaded jar the NodeManagers load the aux service from. */
    static final String AUX_JAR_ENV = "CAMDOOP_HADOOP_JAR";

    @Spec
    CommandSpec spec;

    @Option(names = "--nodes", defaultValue = "3", paramLabel = "N",
            description = "NodeManagers, each with one Camdoop daemon (default: ${DEFAULT-VALUE}).")
    int nodes;

    @Option(names = "--shape", defaultValue = "3x3x3", paramLabel = "AxBxC",
            description = "Torus shape; coordinates beyond the NodeManagers' get forwarding-only daemons"
                    + " (default: ${DEFAULT-VALUE}).")
    String shape;

    @Option(names = "--stock", description = "Hadoop's own shuffle: no plug-in keys, no daemons.")
    boolean stock;

    @Option(names = "--work", paramLabel = "DIR",
            description = "Directory for the cluster's directories, the client configuration, the topology file and"
                    + " the daemons' files (default: camdoop-minicluster-PID in the temporary directory).")
    Path work;

    @Parameters(paramLabel = "PROGRAM", arity = "1..*",
            description = "After --: the examples program and its arguments, e.g. wordcount IN OUT.")
    List<String> program = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        Path dir = work != null ? work
                : Path.of(System.getProperty("java.io.tmpdir"), "camdoop-minicluster-" + ProcessHandle.current().pid());
        Optional<Path> auxJar = Optional.ofNullable(System.getenv(AUX_JAR_ENV)).filter(s -> !s.isBlank()).map(Path::of);
        MiniClusterOptions options = new MiniClusterOptions(nodes, TorusShape.parse(shape), stock, dir, program, auxJar);
        // The program's own output goes straight to this process's stdout; the JSON line after it, last.
        MiniClusterResult result = new MiniClusterRunner(options, System.out, System.err).run();
        System.out.flush();
        PrintWriter out = spec.commandLine().getOut();
        out.println(result.toJson());
        out.flush();
        return result.exit();
    }
}
