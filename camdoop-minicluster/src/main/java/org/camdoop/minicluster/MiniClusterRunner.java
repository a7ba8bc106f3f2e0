package org.camdoop.minicluster;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Runs one examples program on a fresh {@link MiniCluster}: starts the cluster (and, unless stock, the Camdoop daemons),
 * writes the client configuration, runs the program in a child JVM, reads its last job's counters and stops
 * everything. Progress goes to the {@code progress} stream; the program's own stdout to {@code out}.
 *
 * <p>The cluster runs on the local file system: paths given to the program are local paths (relative ones resolve
 * against this process's working directory). The cluster's own directories (NodeManager local and log dirs) go under
 * the work directory's {@code cluster}.
 */
public final class MiniClusterRunner {

    private static final String WHO = "camdoop minicluster";

    private final MiniClusterOptions options;
    private final PrintStream out;
    private final PrintStream progress;

    public MiniClusterRunner(MiniClusterOptions options, PrintStream out, PrintStream progress) {
        this.options = options;
        this.out = out;
        this.progress = progress;
    }

    /** Runs the program; a failing program is a result (its exit status), a cluster that cannot start an exception. */
    public MiniClusterResult run() throws IOException, InterruptedException {
        long start = System.nanoTime();
        progress.printf(Locale.ROOT, "%s: starting %d NodeManagers (%s)...%n", WHO, options.nodes(),
                options.stock() ? "stock shuffle" : "Camdoop on a " + options.shape() + " torus");
        try (MiniCluster cluster = MiniCluster.start(options.nodes(), options.shape(), !options.stock(),
                options.work(), options.auxServiceJar(), progress, WHO)) {
            int forwarding = cluster.forwardingDaemons();
            progress.printf(Locale.ROOT, "%s: cluster up in %.1f s%s%n", WHO, seconds(start),
                    options.stock() ? "" : ", " + forwarding + " forwarding-only daemons");
            Path confDir = cluster.writeClientConf(options.work().resolve("client-conf"), !options.stock());
            return cluster.runProgram(confDir, options.program(), out);
        }
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }
}
