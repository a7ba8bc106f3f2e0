package org.camdoop.minicluster;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.camdoop.shuffle.daemon.DaemonConfig;
import org.camdoop.shuffle.jobs.JobsConfig;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.TransportConfig;

/**
 * A started MiniMRYarnCluster on the local file system and, when asked, the Camdoop daemons: each NodeManager's
 * {@code mapreduce_shuffle} is {@code CamdoopShuffleHandler}, which hosts one daemon (the first {@code nodes} torus
 * coordinates), plus forwarding-only daemons for the rest of the torus. Closing stops all of it. Used by
 * {@link MiniClusterRunner} (one program), by the Hadoop benchmark (several jobs on one cluster) and by the end-to-end
 * tests (several jobs at once). One JVM runs one cluster at a time: YARN keeps the ResourceManager's start time in a
 * static field, and a second cluster's start makes the first one's NodeManagers reject its containers.
 *
 * <p>The cluster's own directories (NodeManager local and log dirs, JobHistory) go under {@code work/cluster}.
 */
public final class MiniCluster implements AutoCloseable {

    /** The MiniYARN cluster's name (its directory under the test dir). */
    static final String CLUSTER_NAME = "camdoop-minicluster";

    /** Where Hadoop's test utilities (MiniYARN) put their directories. */
    private static final String TEST_DIR_PROPERTY = "test.build.data";

    /**
     * How long {@link #close} waits for the cluster to stop. Each NodeManager's stop waits for its finished
     * applications' logs to be deleted (hours away) and then 10 s for its log deleter: over half a minute for three,
     * with nothing left to do that matters, so the stop is not waited for beyond this.
     */
    static final long STOP_WAIT_SECONDS = 1;

    private final MiniMRYarnCluster cluster;
    private final ForwardingDaemons forwarding;
    private final String previousTestDir;
    private final PrintStream progress;
    private final String who;

    private MiniCluster(MiniMRYarnCluster cluster, ForwardingDaemons forwarding, String previousTestDir,
            PrintStream progress, String who) {
        this.cluster = cluster;
        this.forwarding = forwarding;
        this.previousTestDir = previousTestDir;
        this.progress = progress;
        this.who = who;
    }

    /**
     * Starts {@code nodes} NodeManagers and, if {@code camdoop}, the daemons of a torus of {@code shape}.
     *
     * @param auxServiceJar the shaded camdoop-hadoop jar the NodeManagers load the aux service from; empty: this JVM's
     *     class path
     * @param who the prefix of this class's progress lines, e.g. {@code camdoop minicluster}
     */
    public static MiniCluster start(int nodes, TorusShape shape, boolean camdoop, Path work,
            Optional<Path> auxServiceJar, PrintStream progress, String who) throws IOException, InterruptedException {
        Files.createDirectories(work);
        Configuration conf = baseConfiguration();
        TorusLayout layout = null;
        if (camdoop) {
            layout = TorusLayout.allocate(shape, nodes);
            conf = withCamdoopDaemons(conf, layout, nodes, work, auxServiceJar);
        }
        // MiniYARN puts its directories under GenericTestUtils' test dir: ./target/test/data unless this is set.
        String previousTestDir = System.getProperty(TEST_DIR_PROPERTY);
        System.setProperty(TEST_DIR_PROPERTY, work.resolve("cluster").toAbsolutePath().toString());
        MiniMRYarnCluster cluster = new MiniMRYarnCluster(CLUSTER_NAME, nodes);
        ForwardingDaemons forwarding = null;
        try {
            cluster.init(conf);
            cluster.start();
            if (layout != null) {
                forwarding = ForwardingDaemons.start(conf, layout.forwardingCoords());
            }
            return new MiniCluster(cluster, forwarding, previousTestDir, progress, who);
        } catch (IOException | InterruptedException | RuntimeException e) {
            new MiniCluster(cluster, forwarding, previousTestDir, progress, who).close();
            throw e;
        }
    }

    /** The running cluster's configuration (ResourceManager, JobHistory addresses, the daemons' settings). */
    public Configuration config() {
        return cluster.getConfig();
    }

    /** Forwarding-only daemons started (0 without Camdoop). */
    public int forwardingDaemons() {
        return forwarding == null ? 0 : forwarding.count();
    }

    /**
     * Writes the client configuration an examples program reads to {@code dir}: the cluster's, plus the Camdoop job
     * keys if {@code camdoopJobs} (every job of the program goes through Camdoop then).
     */
    public Path writeClientConf(Path dir, boolean camdoopJobs) throws IOException {
        return writeClientConf(dir, camdoopJobs, Map.of());
    }

    /** As {@link #writeClientConf(Path, boolean)}, plus {@code jobDefaults} (as an operator's mapred-site.xml). */
    public Path writeClientConf(Path dir, boolean camdoopJobs, Map<String, String> jobDefaults) throws IOException {
        Configuration client = new Configuration(cluster.getConfig());
        if (camdoopJobs) {
            PluginKeys.jobSettings().forEach(client::set);
        }
        jobDefaults.forEach(client::set);
        return ClientConfDir.write(client, dir);
    }

    /**
     * Runs an unmodified examples program against the configuration in {@code confDir} (see {@link #runExamples}) and
     * reads its last job's counters. Several may run at once, each with its own jobs.
     */
    public MiniClusterResult runProgram(Path confDir, List<String> program, PrintStream out)
            throws IOException, InterruptedException {
        progress.println(who + ": running " + String.join(" ", program));
        ExamplesProcess.Outcome outcome = runExamples(confDir, program, out, progress);
        progress.printf(Locale.ROOT, "%s: program exited %d after %.1f s%n", who, outcome.exit(), outcome.seconds());
        Map<String, Long> counters = Map.of();
        if (!outcome.jobs().isEmpty()) {
            String last = outcome.jobs().get(outcome.jobs().size() - 1);
            try {
                counters = JobCounters.of(config(), last);
            } catch (IOException | RuntimeException e) {
                // The result stands even so: the exit status is what matters.
                progress.println(who + ": no counters for " + last + ": " + e.getMessage());
            }
        }
        return new MiniClusterResult(outcome.exit(), outcome.seconds(), counters, outcome.jobs());
    }

    /** Runs an unmodified examples program in a child JVM against the configuration in {@code confDir}. */
    public ExamplesProcess.Outcome runExamples(Path confDir, List<String> program, PrintStream out, PrintStream err)
            throws IOException, InterruptedException {
        return ExamplesProcess.run(confDir, program, out, err);
    }

    /**
     * Stops the cluster, waiting at most {@link #STOP_WAIT_SECONDS}: MiniYARN's stop can linger for half a minute
     * after a job (services waiting out their own timeouts) while the result is already known. A stop still running
     * after that goes on in a daemon thread, and JVM exit ends it.
     */
    @Override
    public void close() throws InterruptedException {
        progress.println(who + ": stopping the cluster");
        try {
            if (forwarding != null) {
                forwarding.close();
            }
            Thread stopper = new Thread(cluster::stop, "minicluster-stop");
            stopper.setDaemon(true);
            stopper.start();
            stopper.join(STOP_WAIT_SECONDS * 1000);
            if (stopper.isAlive()) {
                progress.printf(Locale.ROOT, "%s: the cluster is still stopping after %d s; not waiting%n", who,
                        STOP_WAIT_SECONDS);
            }
        } finally {
            if (previousTestDir == null) {
                System.clearProperty(TEST_DIR_PROPERTY);
            } else {
                System.setProperty(TEST_DIR_PROPERTY, previousTestDir);
            }
        }
    }

    /**
     * The spike-proven settings: local file system, and memory for several 512 MB containers per NodeManager. The
     * NodeManagers and the ApplicationMaster heartbeat every 250 ms instead of every second: containers are handed out
     * on heartbeats, and a mini cluster's short jobs otherwise spend seconds of every phase waiting for the next one.
     */
    private static Configuration baseConfiguration() {
        Configuration conf = new Configuration();
        conf.set("fs.defaultFS", "file:///");
        conf.set("yarn.nodemanager.resource.memory-mb", "4096");
        conf.set("yarn.scheduler.minimum-allocation-mb", "256");
        conf.set("mapreduce.map.memory.mb", "512");
        conf.set("mapreduce.reduce.memory.mb", "512");
        conf.set("yarn.app.mapreduce.am.resource.mb", "512");
        conf.set("yarn.resourcemanager.nodemanagers.heartbeat-interval-ms", "250");
        conf.set("yarn.app.mapreduce.am.scheduler.heartbeat.interval-ms", "250");
        // ApplicationMasters may take half the cluster, not the default tenth (two 512 MB masters): jobs run at once
        // then, as on a cluster shared by several users, instead of queueing for a master's container.
        conf.set("yarn.scheduler.capacity.maximum-am-resource-percent", "0.5");
        // Full disks on developer machines must not mark the NodeManagers unhealthy (no containers would start).
        conf.set("yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage", "100.0");
        return conf;
    }

    /**
     * The NodeManagers' {@code mapreduce_shuffle} is {@code CamdoopShuffleHandler} (Hadoop's shuffle plus a daemon that
     * learns each job's secret and user from it); every daemon reads the same topology file and secret. Trust on first
     * use stays off, as it must in a NodeManager.
     */
    private static Configuration withCamdoopDaemons(Configuration base, TorusLayout layout, int nodes, Path work,
            Optional<Path> auxServiceJar) throws IOException {
        Configuration conf = new ShuffleHandlerPinnedConfiguration(base);
        auxServiceJar.ifPresent(jar -> conf.set(PluginKeys.auxClasspathKey(), jar.toAbsolutePath().toString()));
        Path topology = layout.writeTopologyFile(work.resolve("topology"));
        conf.set(TransportConfig.TOPOLOGY_FILE, topology.toAbsolutePath().toString());
        byte[] secret = new byte[16];
        new SecureRandom().nextBytes(secret);
        conf.set(TransportConfig.CLUSTER_SECRET, HexFormat.of().formatHex(secret));
        if (nodes == 1) {
            // One NodeManager: the shared configuration can name its coordinate, no claiming needed.
            conf.set(DaemonConfig.COORDINATE, TorusLayout.coordText(layout.nodeManagerCoords().get(0)));
        }
        // MiniYARN gives all NodeManagers one configuration: each aux service claims a free coordinate of this host
        // (the first nodes of the topology) in this shared directory.
        Path claims = Files.createDirectories(work.resolve("coordinate-claims"));
        conf.set(DaemonConfig.CLAIM_DIR, claims.toAbsolutePath().toString());
        conf.set(JobsConfig.JAR_CACHE_DIR, work.resolve("jar-cache").toAbsolutePath().toString());
        return conf;
    }
}
