package org.camdoop.examples.minicluster;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;

/**
 * Runs one examples program on a fresh MiniMRYarnCluster: starts the cluster (and, unless stock, the Camdoop daemons),
 * writes the client configuration, runs the program in a child JVM, reads its last job's counters and stops
 * everything. Progress goes to the {@code progress} stream; the program's own stdout to {@code out}.
 *
 * <p>The cluster runs on the local file system: paths given to the program are local paths (relative ones resolve
 * against this process's working directory). The cluster's own directories (NodeManager local and log dirs) go under
 * the work directory's {@code cluster}.
 */
public final class MiniClusterRunner {

    /** The MiniYARN cluster's name (its directory under {@code ./target}). */
    static final String CLUSTER_NAME = "camdoop-minicluster";

    /** Where Hadoop's test utilities (MiniYARN) put their directories. */
    private static final String TEST_DIR_PROPERTY = "test.build.data";

    /** How long {@link #run} waits for the cluster to stop. */
    static final long STOP_WAIT_SECONDS = 10;

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
        if (!options.stock()) {
            requirePlugins();
        }
        Files.createDirectories(options.work());
        Configuration conf = baseConfiguration();
        TorusLayout layout = null;
        if (!options.stock()) {
            layout = TorusLayout.allocate(options.shape(), options.nodes());
            conf = withCamdoopDaemons(conf, layout);
        }
        long start = System.nanoTime();
        progress.printf(Locale.ROOT, "camdoop minicluster: starting %d NodeManagers (%s)...%n", options.nodes(),
                options.stock() ? "stock shuffle" : "Camdoop on a " + options.shape() + " torus");
        // MiniYARN puts its directories under GenericTestUtils' test dir: ./target/test/data unless this is set.
        String previousTestDir = System.getProperty(TEST_DIR_PROPERTY);
        System.setProperty(TEST_DIR_PROPERTY, options.work().resolve("cluster").toAbsolutePath().toString());
        MiniMRYarnCluster cluster = new MiniMRYarnCluster(CLUSTER_NAME, options.nodes());
        ForwardingDaemons forwarding = null;
        try {
            cluster.init(conf);
            cluster.start();
            if (layout != null) {
                forwarding = ForwardingDaemons.start(conf, layout.forwardingCoords());
            }
            progress.printf(Locale.ROOT, "camdoop minicluster: cluster up in %.1f s%s%n", seconds(start),
                    forwarding == null ? "" : ", " + forwarding.count() + " forwarding-only daemons");
            Configuration client = new Configuration(cluster.getConfig());
            if (!options.stock()) {
                client.set(PluginKeys.COLLECTOR_KEY, PluginKeys.COLLECTOR);
                client.set(PluginKeys.SHUFFLE_KEY, PluginKeys.SHUFFLE);
                client.set(PluginKeys.PROVIDERS_KEY, PluginKeys.AUX_SERVICE);
            }
            Path confDir = ClientConfDir.write(client, options.work().resolve("client-conf"));
            progress.println("camdoop minicluster: running " + String.join(" ", options.program()));
            ExamplesProcess.Outcome outcome = ExamplesProcess.run(confDir, options.program(), out, progress);
            progress.printf(Locale.ROOT, "camdoop minicluster: program exited %d after %.1f s%n", outcome.exit(),
                    outcome.seconds());
            Map<String, Long> counters = Map.of();
            if (!outcome.jobs().isEmpty()) {
                String last = outcome.jobs().get(outcome.jobs().size() - 1);
                try {
                    counters = JobCounters.of(cluster.getConfig(), last);
                } catch (IOException | RuntimeException e) {
                    // The JSON line is printed even so: the exit status is the result that matters.
                    progress.println("camdoop minicluster: no counters for " + last + ": " + e.getMessage());
                }
            }
            return new MiniClusterResult(outcome.exit(), outcome.seconds(), counters, outcome.jobs());
        } finally {
            progress.println("camdoop minicluster: stopping the cluster");
            if (forwarding != null) {
                forwarding.close();
            }
            stopWithin(cluster, STOP_WAIT_SECONDS);
            restore(TEST_DIR_PROPERTY, previousTestDir);
        }
    }

    /**
     * Stops the cluster, waiting at most {@code seconds}: MiniYARN's stop can linger for half a minute after a job
     * (services waiting out their own timeouts) while the result is already known. A stop still running after that
     * goes on in a daemon thread, and JVM exit ends it.
     */
    private void stopWithin(MiniMRYarnCluster cluster, long seconds) throws InterruptedException {
        Thread stopper = new Thread(cluster::stop, "minicluster-stop");
        stopper.setDaemon(true);
        stopper.start();
        stopper.join(seconds * 1000);
        if (stopper.isAlive()) {
            progress.printf(Locale.ROOT, "camdoop minicluster: the cluster is still stopping after %d s; not waiting%n",
                    seconds);
        }
    }

    /** The spike-proven settings: local file system, and memory for three 512 MB containers per NodeManager. */
    private Configuration baseConfiguration() {
        Configuration conf = new Configuration();
        conf.set("fs.defaultFS", "file:///");
        conf.set("yarn.nodemanager.resource.memory-mb", "4096");
        conf.set("yarn.scheduler.minimum-allocation-mb", "256");
        conf.set("mapreduce.map.memory.mb", "512");
        conf.set("mapreduce.reduce.memory.mb", "512");
        conf.set("yarn.app.mapreduce.am.resource.mb", "512");
        // Full disks on developer machines must not mark the NodeManagers unhealthy (no containers would start).
        conf.set("yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage", "100.0");
        return conf;
    }

    /**
     * The NodeManagers host {@code camdoop_shuffle} next to {@code mapreduce_shuffle}; every daemon reads the same
     * topology file and secret.
     */
    private Configuration withCamdoopDaemons(Configuration base, TorusLayout layout) throws IOException {
        Configuration conf = new AuxServicesPinnedConfiguration(base);
        conf.set(PluginKeys.AUX_CLASS_KEY, PluginKeys.AUX_CLASS);
        options.auxServiceJar().ifPresent(jar -> conf.set(PluginKeys.AUX_CLASSPATH_KEY, jar.toAbsolutePath().toString()));
        Path topology = layout.writeTopologyFile(options.work().resolve("topology"));
        conf.set(PluginKeys.TOPOLOGY_FILE_KEY, topology.toAbsolutePath().toString());
        byte[] secret = new byte[16];
        new SecureRandom().nextBytes(secret);
        conf.set(PluginKeys.SECRET_KEY, HexFormat.of().formatHex(secret));
        // TODO(plug-ins): MiniYARN gives all NodeManagers one configuration, so camdoop.daemon.coordinate cannot be
        // set per NodeManager. The aux services are to claim one of this host's free NodeManager coordinates
        // (the first --nodes of the topology) in this shared directory; until CamdoopAuxService does, the daemons in
        // the NodeManagers fail to start ("the topology file names this host for [...]").
        // Hadoop 3.5's MapReduce AM gives external shuffle providers an EMPTY service-data buffer
        // (TaskAttemptImpl.addExternalShuffleProviders puts ByteBuffer.allocate(0); only mapreduce_shuffle gets the job
        // token), so CamdoopAuxService.initializeApplication never learns the job's secret. On this single-user
        // loopback cluster the daemons accept the token a job's first registration brings instead.
        conf.setBoolean(PluginKeys.TRUST_ON_FIRST_USE_KEY, true);
        if (options.nodes() == 1) {
            // One NodeManager: the shared configuration can name its coordinate, no claiming needed.
            conf.set(PluginKeys.COORDINATE_KEY, TorusLayout.coordText(layout.nodeManagerCoords().get(0)));
        }
        Path claims = Files.createDirectories(options.work().resolve("coordinate-claims"));
        conf.set(PluginKeys.CLAIM_DIR_KEY, claims.toAbsolutePath().toString());
        conf.set(org.camdoop.shuffle.jobs.JobsConfig.JAR_CACHE_DIR, options.work().resolve("jar-cache").toAbsolutePath().toString());
        return conf;
    }

    /**
     * The job's tasks get this JVM's class path (MiniYARN), so plug-ins missing here would fail every map attempt a
     * minute later; say so at once.
     *
     * @throws IllegalArgumentException naming the missing class
     */
    static void requirePlugins() {
        for (String plugin : new String[] {PluginKeys.COLLECTOR, PluginKeys.SHUFFLE, PluginKeys.AUX_CLASS}) {
            try {
                Class.forName(plugin, false, MiniClusterRunner.class.getClassLoader());
            } catch (ClassNotFoundException | LinkageError e) {
                throw new IllegalArgumentException("the Camdoop Hadoop plug-in " + plugin
                        + " is not on the class path; run with --stock for Hadoop's own shuffle");
            }
        }
    }

    private static void restore(String property, String value) {
        if (value == null) {
            System.clearProperty(property);
        } else {
            System.setProperty(property, value);
        }
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }
}
