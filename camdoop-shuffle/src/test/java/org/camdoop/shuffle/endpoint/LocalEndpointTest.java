package org.camdoop.shuffle.endpoint;

import org.camdoop.shuffle.client.DaemonClient;
import org.camdoop.shuffle.client.DaemonLocator;
import org.camdoop.shuffle.jobs.JobsConfig;
import org.camdoop.shuffle.protocol.PortFile;
import org.camdoop.shuffle.protocol.DaemonRefusedException;
import org.camdoop.shuffle.protocol.Refusal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.camdoop.shuffle.aggregation.Advance;
import org.camdoop.shuffle.aggregation.ChunkQueueRun;
import org.camdoop.shuffle.daemon.CamdoopDaemon;
import org.camdoop.shuffle.daemon.DaemonConfig;
import org.camdoop.shuffle.protocol.JobSpec;
import org.camdoop.shuffle.protocol.JobTokenProof;
import org.camdoop.shuffle.protocol.MapOutput;
import org.camdoop.shuffle.protocol.MapOutputRegistration;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.shuffle.protocol.StreamItem;
import org.camdoop.shuffle.testing.NodeManagerDirs;
import org.camdoop.shuffle.testing.WordCounts;
import org.camdoop.torus.trees.TreeChoice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local protocol against a real daemon on loopback: registrations, refusals with their exact text, a shuffle. */
class LocalEndpointTest {
    private static final String JOB = "job_1700000000000_0042";
    private static final String ATTEMPT = "attempt_1700000000000_0042_m_000000_0";
    private static final byte[] SECRET = "shuffle secret".getBytes();

    @TempDir
    Path dir;

    private CamdoopDaemon startDaemon() throws Exception {
        StringBuilder t = new StringBuilder("shape 1x1x1\n");
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            t.append("0,0,0 127.0.0.1:").append(probe.getLocalPort()).append('\n');
        }
        Path topology = dir.resolve("topology");
        Files.writeString(topology, t);
        Configuration c = new Configuration(false);
        c.set("camdoop.topology.file", topology.toString());
        c.set("camdoop.cluster.secret", "local-endpoint-test-cluster-secret-32-bytes");
        c.set(DaemonConfig.COORDINATE, "0,0,0");
        c.set(DaemonConfig.VERTEX_THREADS, "1");
        c.set("camdoop.daemon.jar-cache.dir", dir.resolve("jars").toString());
        c.set(JobsConfig.LOCAL_DIRS, dir.resolve("nm").toString());
        return CamdoopDaemon.start(c);
    }

    private static DaemonClient connect(CamdoopDaemon d) throws Exception {
        return DaemonClient.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), d.localPort()), 5000);
    }

    @Test
    void registrationsAndAShuffleRoundTrip() throws Exception {
        JobConf job = WordCounts.jobWithCombiner(1);
        job.set("mapreduce.job.id", JOB);
        JobSpec spec = JobSpec.fromJobConf(job, List.of());
        Map<String, Integer> counts = Map.of("apple", 3, "pear", 2);
        NodeManagerDirs.writeWordCounts(job, dir.resolve("nm"), JOB, ATTEMPT, counts);
        MapOutput output = new MapOutput(JOB, ATTEMPT, 1);
        try (CamdoopDaemon d = startDaemon(); DaemonClient client = connect(d)) {
            DaemonRefusedException unknown = assertThrows(DaemonRefusedException.class,
                    () -> client.registerJob(spec, JobTokenProof.forSpec(SECRET, spec)));
            assertEquals(Refusal.UNKNOWN_JOB, unknown.refusal());
            assertEquals("unknown job " + JOB + ": no job token registered", unknown.getMessage());

            d.tokens().add(JOB, SECRET, NodeManagerDirs.USER);
            DaemonRefusedException bad = assertThrows(DaemonRefusedException.class,
                    () -> client.registerJob(spec, JobTokenProof.forSpec("wrong".getBytes(), spec)));
            assertEquals(Refusal.BAD_PROOF, bad.refusal());
            assertEquals("job spec registration for " + JOB + " refused: bad job token proof", bad.getMessage());

            client.registerJob(spec, JobTokenProof.forSpec(SECRET, spec));
            assertEquals(ATTEMPT + " recorded", client.registerMapOutput(
                    new MapOutputRegistration(output, JobTokenProof.forMapOutput(SECRET, output))));

            DaemonRefusedException badShuffle = assertThrows(DaemonRefusedException.class, () -> client.startShuffle(
                    JOB, 0, 0, ShuffleMode.CAMDOOP, TreeChoice.SIX, new TreeSet<>(List.of(ATTEMPT)), new byte[32]));
            assertEquals("shuffle of " + JOB + " partition 0 refused: bad job token proof", badShuffle.getMessage());

            assertEquals("0,0,0", client.startShuffle(JOB, 0, 0, ShuffleMode.CAMDOOP, TreeChoice.SIX,
                    new TreeSet<>(List.of(ATTEMPT)), JobTokenProof.forShuffle(SECRET, JOB, 0, 0)));
            ChunkQueueRun records = new ChunkQueueRun("client");
            StreamItem n;
            while ((n = client.next()) instanceof StreamItem.Chunk c) {
                records.offer(c.bytes(), c.length());
            }
            assertInstanceOf(StreamItem.End.class, n, n::toString);
            assertEquals(List.of(ATTEMPT), List.copyOf(((StreamItem.End) n).end().attempts().attempts()));
            records.finish();
            SortedMap<String, Long> sums = new TreeMap<>();
            while (records.advance() == Advance.RECORD) {
                sums.put(WordCounts.text(records.key().array(), records.key().offset(), records.key().length()),
                        (long) WordCounts.intValue(records.value().array(), records.value().offset(),
                                records.value().length()));
            }
            assertEquals(Map.of("apple", 3L, "pear", 2L), sums);
            // The connection serves further requests after a stream.
            assertEquals(ATTEMPT + " already recorded", client.registerMapOutput(
                    new MapOutputRegistration(output, JobTokenProof.forMapOutput(SECRET, output))));
        }
    }

    @Test
    void aTaskFindsThePortFileAboveItsContainerDirs() throws Exception {
        Path nmDir = dir.resolve("nm-local-0");
        PortFile.write(nmDir, 4321);
        Path container = nmDir.resolve("usercache/u/appcache/application_1_0001/container_1");
        Files.createDirectories(container);
        Configuration conf = new Configuration(false);
        assertEquals(4321, DaemonLocator.locate(conf, List.of(container.toString())).getPort());
        conf.set(DaemonLocator.ADDRESS_KEY, "localhost:999");
        assertEquals(999, DaemonLocator.locate(conf, List.of(container.toString())).getPort());
        Configuration none = new Configuration(false);
        Path elsewhere = dir.resolve("elsewhere");
        assertEquals("no Camdoop daemon found: camdoop.daemon.local.address unset, no camdoop/daemon.port above ["
                + elsewhere + "], camdoop.daemon.local.port unset",
                assertThrows(java.io.IOException.class, () -> DaemonLocator.locate(none, List.of(elsewhere.toString())))
                        .getMessage());
    }
}
