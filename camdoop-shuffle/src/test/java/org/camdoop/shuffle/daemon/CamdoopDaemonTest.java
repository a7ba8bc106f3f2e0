package org.camdoop.shuffle.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.security.token.JobTokenIdentifier;
import org.apache.hadoop.security.token.Token;
import org.camdoop.shuffle.aggregation.Advance;
import org.camdoop.shuffle.aggregation.ChunkQueueRun;
import org.camdoop.shuffle.jobs.JobsConfig;
import org.camdoop.shuffle.jobs.MapOutputOutcome;
import org.camdoop.shuffle.jobs.RegisterOutcome;
import org.camdoop.shuffle.protocol.JobSpec;
import org.camdoop.shuffle.protocol.JobTokenProof;
import org.camdoop.shuffle.protocol.MapOutput;
import org.camdoop.shuffle.protocol.MapOutputRegistration;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.protocol.StreamItem;
import org.camdoop.shuffle.protocol.ShuffleCodes;
import org.camdoop.shuffle.service.RootStream;
import org.camdoop.shuffle.testing.NodeManagerDirs;
import org.camdoop.shuffle.service.net.StartProof;
import org.camdoop.shuffle.testing.WordCounts;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.trees.TreeChoice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real daemons on loopback TCP, configured as an operator would, with jobs registered through the registry. */
class CamdoopDaemonTest {

    private static final String JOB = "job_1700000000000_0007";

    @TempDir
    Path dir;

    private Path topology(String shape, int servers) throws Exception {
        StringBuilder t = new StringBuilder("shape " + shape + "\n");
        for (int s = 0; s < servers; s++) {
            try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                t.append(s).append(",0,0 127.0.0.1:").append(probe.getLocalPort()).append('\n');
            }
        }
        Path file = dir.resolve("topology");
        Files.writeString(file, t);
        return file;
    }

    private Configuration conf(Path topology, String coord) {
        Configuration c = new Configuration(false);
        c.set("camdoop.topology.file", topology.toString());
        c.set("camdoop.cluster.secret", "daemon-test-cluster-secret-of-32-bytes-or-more");
        c.set(DaemonConfig.COORDINATE, coord);
        c.set(DaemonConfig.VERTEX_THREADS, "1");
        c.set("camdoop.daemon.jar-cache.dir", dir.resolve("jars-" + coord).toString());
        c.set(JobsConfig.LOCAL_DIRS, dir.resolve("nm-" + coord.replace(',', '_')).toString());
        return c;
    }

    @Test
    void threeDaemonsShuffleAJobRegisteredThroughTheirRegistries() throws Exception {
        Path topology = topology("3x1x1", 3);
        JobConf job = WordCounts.jobWithCombiner(2);
        job.set("mapreduce.job.id", JOB);
        byte[] secret = "the job's shuffle secret".getBytes();
        Token<JobTokenIdentifier> token = new Token<>(new JobTokenIdentifier(new Text(JOB)).getBytes(), secret,
                JobTokenIdentifier.KIND_NAME, new Text("svc"));
        List<CamdoopDaemon> daemons = new ArrayList<>();
        List<Map<String, Integer>> maps = new ArrayList<>();
        TreeSet<String> attempts = new TreeSet<>();
        try {
            for (int s = 0; s < 3; s++) {
                daemons.add(CamdoopDaemon.start(conf(topology, s + ",0,0")));
            }
            for (int s = 0; s < 3; s++) {
                CamdoopDaemon d = daemons.get(s);
                d.tokens().add(JOB, secret, NodeManagerDirs.USER);
                JobSpec spec = JobSpec.fromJobConf(job, List.of());
                RegisterOutcome registered = d.registry().registerFromTask(spec, JobTokenProof.forSpec(secret, spec));
                assertEquals(RegisterOutcome.Kind.REGISTERED, registered.kind(), registered.message());
                String attempt = String.format("attempt_1700000000000_0007_m_%06d_0", s);
                Map<String, Integer> counts = Map.of("apple", s + 1, "pear", 2, "only" + s, 1);
                NodeManagerDirs.writeWordCounts(job, dir.resolve("nm-" + s + "_0_0"), JOB, attempt, counts);
                MapOutputOutcome recorded = d.registry().registerMapOutput(MapOutputRegistration.signed(
                        new MapOutput(JOB, attempt, 2), token));
                assertEquals(MapOutputOutcome.Kind.ACCEPTED, recorded.kind(), recorded.message());
                maps.add(counts);
                attempts.add(attempt);
            }
            // Issue 11, attack 2 on the torus: a START without the reduce task's proof is refused by every daemon
            // that holds the job's token, and the shuffle fails at once with their reason.
            ShuffleSpec unproven = new ShuffleSpec(7L, JOB, 0, 9, new Coord(1, 0, 0), ShuffleMode.CAMDOOP,
                    TreeChoice.SIX, attempts);
            StreamItem refused;
            RootStream attack = daemons.get(1).service().startShuffle(unproven);
            long giveUp = System.nanoTime() + Duration.ofSeconds(120).toNanos();
            do {
                // Records from the root's own vertices may come before the failure; a loaded machine may be slow.
                refused = attack.next(Duration.ofSeconds(5));
            } while ((refused instanceof StreamItem.Chunk || refused instanceof StreamItem.Timeout)
                    && System.nanoTime() < giveUp);
            assertInstanceOf(StreamItem.Failed.class, refused, refused::toString);
            // The peers log "START of ... refused: it carries no job token proof and this daemon holds the token of
            // job_..." and abort it everywhere; the root's stream reports the abort in whichever words reach it first.
            assertTrue(((StreamItem.Failed) refused).reason().contains("abort"), refused.toString());
            for (int partition = 0; partition < 2; partition++) {
                ShuffleSpec spec = new ShuffleSpec(7L, JOB, partition, 0, new Coord(1, 0, 0), ShuffleMode.CAMDOOP,
                        TreeChoice.SIX, attempts);
                byte[] nonce = new byte[32];
                nonce[0] = (byte) partition;
                RootStream root = daemons.get(1).service().startShuffle(spec, new StartProof(nonce,
                        JobTokenProof.forShuffle(secret, JOB, partition, 0, ShuffleCodes.code(ShuffleMode.CAMDOOP),
                                ShuffleCodes.code(TreeChoice.SIX), nonce, attempts)));
                ChunkQueueRun records = new ChunkQueueRun("root");
                StreamItem n;
                while ((n = root.next(Duration.ofSeconds(30))) instanceof StreamItem.Chunk c) {
                    records.offer(c.bytes(), c.length());
                }
                assertInstanceOf(StreamItem.End.class, n, n::toString);
                records.finish();
                SortedMap<String, Long> sums = new TreeMap<>((a, b) -> new Text(a).compareTo(new Text(b)));
                while (records.advance() == Advance.RECORD) {
                    sums.merge(WordCounts.text(records.key().array(), records.key().offset(), records.key().length()),
                            (long) WordCounts.intValue(records.value().array(), records.value().offset(),
                                    records.value().length()), Long::sum);
                }
                assertEquals(WordCounts.reference(maps, partition, 2), sums);
            }
            // What the operator's metrics say of all that (docs/operations.md): the root started three shuffles, the
            // peers refused the unproven one and aborted it, and the vertices combined "apple" and "pear".
            org.camdoop.shuffle.service.DaemonCounters.Snapshot root = daemons.get(1).snapshot().totals();
            assertEquals(3, root.rootStarts());
            long refusedStarts = 0;
            long peerStarts = 0;
            long combined = 0;
            for (CamdoopDaemon d : daemons) {
                org.camdoop.shuffle.service.DaemonCounters.Snapshot t = d.snapshot().totals();
                refusedStarts += t.startsRefused();
                peerStarts += t.peerStarts();
                combined += t.recordsCombined();
            }
            assertTrue(refusedStarts >= 1, "the unproven START was refused somewhere");
            assertTrue(peerStarts >= 4, "two daemons got the two proven STARTs: " + peerStarts);
            assertTrue(combined > 0, "records were combined on path");
        } finally {
            for (CamdoopDaemon d : daemons) {
                d.close();
            }
        }
        assertEquals(List.of(), liveCamdoopThreads(), "threads left after close");
    }

    /**
     * The daemons' threads still alive after close: each is joined (woken by its exit) within one shared bound, so a
     * daemon that leaves a thread running fails the test instead of leaking it into the next one.
     */
    private static List<String> liveCamdoopThreads() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        List<String> live = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("camdoop-")) {
                t.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
                if (t.isAlive()) {
                    live.add(t.getName());
                }
            }
        }
        return live;
    }

    @Test
    void configurationMistakesAreOneLineErrors() throws Exception {
        Path topology = topology("3x1x1", 2);
        IllegalArgumentException vacant = assertThrows(IllegalArgumentException.class,
                () -> CamdoopDaemon.start(conf(topology, "2,0,0")));
        assertEquals("camdoop.daemon.coordinate 2,0,0 has no line in the topology file " + topology, vacant.getMessage());
        Configuration noSecret = conf(topology, "0,0,0");
        noSecret.unset("camdoop.cluster.secret");
        IllegalStateException secret = assertThrows(IllegalStateException.class, () -> CamdoopDaemon.start(noSecret));
        assertTrue(secret.getMessage().startsWith("camdoop.cluster.secret is not set"), secret.getMessage());
        Configuration badThreads = conf(topology, "0,0,0");
        badThreads.set(DaemonConfig.PUMP_RECORDS, "0");
        assertEquals("camdoop.daemon.vertex.pump.records must be positive, got 0",
                assertThrows(IllegalArgumentException.class, () -> CamdoopDaemon.start(badThreads)).getMessage());
    }
}
