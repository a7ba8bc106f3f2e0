package org.camdoop.shuffle.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.ShuffleHandler;
import org.apache.hadoop.mapreduce.security.token.JobTokenIdentifier;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.camdoop.shuffle.jobs.JobsConfig;
import org.camdoop.shuffle.protocol.JobTokenProof;
import org.camdoop.shuffle.protocol.DaemonSocketFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The NodeManager's view of {@code mapreduce_shuffle} replaced by {@link CamdoopShuffleHandler}: Hadoop's shuffle
 * starts as before (it publishes its port), the hosted daemon learns each application's secret and user from what
 * ShuffleHandler learned, forgets them at the application's end, learns them again after a restart with recovery,
 * and trust on first use stops the service at start.
 */
class CamdoopShuffleHandlerTest {
    private static final byte[] NONCE = new byte[32];
    private static final java.util.SortedSet<String> ATTEMPTS = new java.util.TreeSet<>(java.util.List.of(
            "attempt_1700000000000_0001_m_000000_0"));
    private static final ApplicationId APP = ApplicationId.newInstance(1700000000000L, 3);
    private static final String JOB = "job_1700000000000_0003";
    private static final byte[] SECRET = "the application's shuffle secret".getBytes();

    @TempDir
    Path dir;

    @BeforeAll
    static void severalShuffleHandlersInOneJvm() {
        // Each ShuffleHandler registers its metrics source; a NodeManager has one, this test starts several.
        DefaultMetricsSystem.setMiniClusterMode(true);
    }

    private Configuration conf() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        Path topology = Files.writeString(dir.resolve("topology"), "shape 1x1x1\n0,0,0 127.0.0.1:" + port + "\n");
        Configuration conf = new Configuration(false);
        conf.set("camdoop.topology.file", topology.toString());
        conf.set("camdoop.cluster.secret", "shuffle-handler-test-cluster-secret-32-bytes");
        conf.set(JobsConfig.JAR_CACHE_DIR, dir.resolve("jars").toString());
        conf.set(DaemonConfig.CLAIM_DIR, dir.resolve("claims").toString());
        conf.set("yarn.nodemanager.local-dirs", dir.resolve("nm-a") + "," + dir.resolve("nm-b"));
        conf.setInt(ShuffleHandler.SHUFFLE_PORT_CONFIG_KEY, 0);
        return conf;
    }

    /** What the MapReduce ApplicationMaster puts in the container's service data for {@code mapreduce_shuffle}. */
    private static ApplicationInitializationContext application(String user) throws Exception {
        return application(user, APP);
    }

    private static ApplicationInitializationContext application(String user, ApplicationId app) throws Exception {
        Token<JobTokenIdentifier> token = new Token<>(new JobTokenIdentifier(new Text(
                CamdoopShuffleHandler.jobOf(app).toString())).getBytes(), SECRET, JobTokenIdentifier.KIND_NAME,
                new Text(""));
        return new ApplicationInitializationContext(user, app, ShuffleHandler.serializeServiceData(token));
    }

    @Test
    void applicationsHandTheirSecretAndUserToTheDaemonAndTakeThemBack() throws Exception {
        CamdoopShuffleHandler service = new CamdoopShuffleHandler();
        service.init(conf());
        service.start();
        try {
            assertTrue(ShuffleHandler.deserializeMetaData(service.getMetaData()) > 0, "Hadoop's shuffle port");
            service.initializeApplication(application("alice"));
            CamdoopDaemon daemon = service.daemon();
            assertEquals(Optional.of("alice"), daemon.tokens().user(JOB));
            // The daemon holds the very secret the tasks prove with.
            assertTrue(daemon.tokens().checkShuffle(JOB, 0, 0, 0, 0, NONCE, ATTEMPTS,
                    JobTokenProof.forShuffle(SECRET, JOB, 0, 0, 0, 0, NONCE, ATTEMPTS))
                    .accepted());
            service.stopApplication(new ApplicationTerminationContext(APP));
            assertFalse(daemon.tokens().knows(JOB));
            // Claimed (no coordinate configured; 127.0.0.1 names this host), and published for the tasks.
            assertTrue(Files.exists(dir.resolve("claims/camdoop-coord-0-0-0.lock")));
            for (String nm : new String[] {"nm-a", "nm-b"}) {
                assertEquals(daemon.localSocket() + "\n", Files.readString(dir.resolve(nm).resolve(DaemonSocketFile.PATH)));
            }
        } finally {
            service.stop();
        }
        assertFalse(Files.exists(dir.resolve("claims/camdoop-coord-0-0-0.lock")));
        assertFalse(Files.exists(dir.resolve("nm-a").resolve(DaemonSocketFile.PATH)));
    }

    @Test
    void secretsRecoveredAfterANodeManagerRestartReachTheDaemon() throws Exception {
        Configuration conf = conf();
        // The NodeManager creates its recovery directory before the services start.
        org.apache.hadoop.fs.Path recovery = new org.apache.hadoop.fs.Path(
                Files.createDirectories(dir.resolve("recovery")).toString());
        CamdoopShuffleHandler before = new CamdoopShuffleHandler();
        before.setRecoveryPath(recovery);
        before.init(conf);
        before.start();
        try {
            before.initializeApplication(application("bob"));
        } finally {
            before.stop(); // the NodeManager goes down with the application still running
        }
        CamdoopShuffleHandler after = new CamdoopShuffleHandler();
        after.setRecoveryPath(recovery);
        after.init(conf);
        after.start();
        try {
            assertEquals(Optional.of("bob"), after.daemon().tokens().user(JOB));
            assertTrue(after.daemon().tokens().checkShuffle(JOB, 1, 0, 0, 0, NONCE, ATTEMPTS,
                    JobTokenProof.forShuffle(SECRET, JOB, 1, 0, 0, 0, NONCE, ATTEMPTS))
                    .accepted());
        } finally {
            after.stop();
        }
    }

    @Test
    void recoveringMoreApplicationsThanTheDaemonMayKnowLeavesTheRestOnTheStockShuffle() throws Exception {
        Configuration conf = conf();
        conf.setInt(JobsConfig.MAX_JOBS, 1);
        org.apache.hadoop.fs.Path recovery = new org.apache.hadoop.fs.Path(
                Files.createDirectories(dir.resolve("recovery")).toString());
        String second = "job_1700000000000_0004";
        String refused = "WARN " + CamdoopShuffleHandler.class.getName() + " - %s: not handed to the Camdoop daemon,"
                + " its map outputs stay on the stock shuffle: job token for %s refused: the daemon already knows 1"
                + " jobs (camdoop.daemon.jobs.max)";
        // slf4j-simple writes to whatever System.err is when it logs.
        java.io.PrintStream stderr = System.err;
        java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(log, true, "UTF-8"));
        try {
            CamdoopShuffleHandler before = new CamdoopShuffleHandler();
            before.setRecoveryPath(recovery);
            before.init(conf);
            before.start();
            try {
                before.initializeApplication(application("alice"));
                // ShuffleHandler keeps the second application (and stores it for recovery); the daemon has no room.
                before.initializeApplication(application("bob", ApplicationId.newInstance(1700000000000L, 4)));
                assertTrue(before.daemon().tokens().knows(JOB));
                assertFalse(before.daemon().tokens().knows(second));
                assertTrue(log.toString("UTF-8").contains(String.format(refused, second, second)), log.toString());
            } finally {
                before.stop();
            }
            log.reset();
            CamdoopShuffleHandler after = new CamdoopShuffleHandler();
            after.setRecoveryPath(recovery);
            after.init(conf);
            after.start(); // recovers both: used to throw the IllegalStateException and stop the NodeManager
            try {
                boolean first = after.daemon().tokens().knows(JOB);
                assertTrue(first != after.daemon().tokens().knows(second), "exactly one job handed over");
                String left = first ? second : JOB;
                String text = log.toString("UTF-8");
                assertTrue(text.contains(String.format(refused, left, left)), text);
                assertTrue(text.contains("handed 1 of 2 recovered applications' secrets to the Camdoop daemon"), text);
            } finally {
                after.stop();
            }
        } finally {
            System.setErr(stderr);
        }
    }

    @Test
    void withoutTheNodeManagersPathHandlerMapOutputsAreFoundInTheLocalDirs() throws Exception {
        // Loaded through aux-services.mapreduce_shuffle.classpath, Hadoop's class-loader wrapper never passes the
        // NodeManager's path handler on: ShuffleHandler's HTTP fetches then failed with a NullPointerException.
        String relative = "usercache/alice/appcache/application_1700000000000_0003/output/"
                + "attempt_1700000000000_0003_m_000000_0/file.out";
        Path output = dir.resolve("nm-b").resolve(relative);
        Files.createDirectories(output.getParent());
        Files.writeString(output, "map output");
        CamdoopShuffleHandler service = new CamdoopShuffleHandler();
        service.init(conf());
        service.start();
        try {
            assertEquals(output.toString(),
                    service.getAuxiliaryLocalPathHandler().getLocalPathForRead(relative).toUri().getPath());
            assertThrows(org.apache.hadoop.util.DiskChecker.DiskErrorException.class,
                    () -> service.getAuxiliaryLocalPathHandler().getLocalPathForRead(relative + ".missing"));
        } finally {
            service.stop();
        }
    }

    @Test
    void trustOnFirstUseIsRefusedInANodeManager() throws Exception {
        Configuration conf = conf();
        conf.setBoolean(JobsConfig.JOB_TOKEN_TRUST_ON_FIRST_USE, true);
        CamdoopShuffleHandler service = new CamdoopShuffleHandler();
        service.init(conf);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, service::start);
        assertEquals("camdoop.daemon.job-token.trust-on-first-use=true is refused in a NodeManager: the NodeManager"
                + " hands the Camdoop daemon every job's secret; remove the key", e.getMessage());
        assertThrows(IllegalStateException.class, service::daemon);
        assertFalse(Files.exists(dir.resolve("claims/camdoop-coord-0-0-0.lock")));
    }
}
