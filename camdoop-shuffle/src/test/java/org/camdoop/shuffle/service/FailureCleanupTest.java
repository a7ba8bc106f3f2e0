package org.camdoop.shuffle.service;

import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.protocol.StreamItem;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.mapred.JobConf;
import org.camdoop.shuffle.daemon.EmbeddedTorus;
import org.camdoop.shuffle.service.vertex.LocalMapOutput;
import org.camdoop.shuffle.testing.WordCounts;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.TransportConfig;
import org.camdoop.torus.trees.TreeChoice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A shuffle that cannot finish fails, naming why, and leaves nothing behind on the surviving daemons. (A server
 * dying without map outputs of the job is recovered from: {@code RecoveryTest}.)
 */
class FailureCleanupTest {

    private static final String JOB = "job_1700000000000_0021";
    private static final TorusShape SHAPE = TorusShape.parse("3x3x3");

    @TempDir
    Path dir;

    private static TransportConfig config() {
        return TransportConfig.of(Map.of(TransportConfig.CLUSTER_SECRET, "failure-cleanup-test-secret-of-32-bytes", TransportConfig.SEGMENT_BYTES, "4096",
                TransportConfig.MAX_FRAME_BYTES, "8192",
                // Slow links, so the shuffle is still running when a server dies; quick failure detection.
                TransportConfig.SHAPING_BYTES_PER_SECOND, "100000", TransportConfig.SHAPING_BURST_BYTES, "8192",
                TransportConfig.FAILURE_TIMEOUT_MS, "200"));
    }

    private TreeSet<String> write(EmbeddedTorus torus) throws Exception {
        JobConf conf = WordCounts.job(1);
        torus.registerJob(JOB, conf);
        Random rnd = new Random(21);
        TreeSet<String> attempts = new TreeSet<>();
        for (int server = 0; server < SHAPE.size(); server++) {
            String attempt = String.format("attempt_1700000000000_0021_m_%06d_0", server);
            Map<String, Integer> counts = new TreeMap<>();
            for (int i = 0; i < 3000; i++) {
                counts.merge("w" + server + "-" + rnd.nextInt(100000), 1, Integer::sum);
            }
            org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(dir.resolve(attempt + ".out").toString());
            org.apache.hadoop.fs.Path index = new org.apache.hadoop.fs.Path(dir.resolve(attempt + ".idx").toString());
            WordCounts.write(conf, file, index, counts);
            torus.addMapOutput(server, JOB, new LocalMapOutput(attempt, file, index));
            attempts.add(attempt);
        }
        return attempts;
    }

    private static final Duration SETTLE = Duration.ofSeconds(20);

    @Test
    void aServerDyingWithItsMapOutputFailsTheRestartedShuffleNamingThemAndTheSurvivorsCleanUp() throws Exception {
        try (EmbeddedTorus torus = EmbeddedTorus.start(FailureView.none(SHAPE), config(),
                EmbeddedTorus.Wiring.IN_JVM, 2)) {
            TreeSet<String> attempts = write(torus);
            RootStream root = torus.service(0).startShuffle(new ShuffleSpec(21L, JOB, 0, 0, new Coord(0, 0, 0),
                    ShuffleMode.NOAGG, TreeChoice.SIX, attempts));
            // Let data flow, then kill the server in the middle of the torus.
            StreamItem first = root.next(Duration.ofSeconds(20));
            assertInstanceOf(StreamItem.Chunk.class, first, first::toString);
            int dead = SHAPE.index(new Coord(1, 1, 1));
            torus.node(dead).close();

            StreamItem last = root.drain(30, TimeUnit.SECONDS);
            assertInstanceOf(StreamItem.Failed.class, last, last::toString);
            // The shuffle restarts without the dead server (generation 1), whose map output died with it: the root
            // names it (Hadoop would re-run that map).
            assertTrue(((StreamItem.Failed) last).reason().contains(
                    "map attempts missing: [attempt_1700000000000_0021_m_000013_0]"), last.toString());
            assertTrue(((StreamItem.Failed) last).reason().endsWith(
                    "(generation 1, restarted without the failed servers [1,1,1])"), last.toString());
            TorusWaits.idle(torus, s -> s != dead, SETTLE);
            TorusWaits.noOpenStreams(torus, s -> s != dead, SETTLE);
        }
    }

    @Test
    void aRootThatDoesNotKnowTheJobStopsEveryDaemon() throws Exception {
        try (EmbeddedTorus torus = EmbeddedTorus.start(FailureView.none(SHAPE), config(),
                EmbeddedTorus.Wiring.IN_JVM, 2)) {
            RootStream root = torus.service(13).startShuffle(new ShuffleSpec(22L, "job_1700000000000_0022", 0, 0,
                    new Coord(1, 1, 1), ShuffleMode.CAMDOOP, TreeChoice.SIX, new TreeSet<>()));
            StreamItem last = root.drain(30, TimeUnit.SECONDS);
            assertInstanceOf(StreamItem.Failed.class, last, last::toString);
            TorusWaits.idle(torus, s -> true, SETTLE);
            TorusWaits.noParkedStarts(torus, SETTLE);
            TorusWaits.noOpenStreams(torus, s -> true, SETTLE);
        }
    }
}
