package org.camdoop.shuffle.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.LinkOption;
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
import org.camdoop.shuffle.aggregation.Advance;
import org.camdoop.shuffle.aggregation.ChunkQueueRun;
import org.camdoop.shuffle.client.DaemonClient;
import org.camdoop.shuffle.jobs.JobsConfig;
import org.camdoop.shuffle.protocol.DaemonRefusedException;
import org.camdoop.shuffle.protocol.JobSpec;
import org.camdoop.shuffle.protocol.JobTokenProof;
import org.camdoop.shuffle.protocol.MapOutput;
import org.camdoop.shuffle.protocol.MapOutputRegistration;
import org.camdoop.shuffle.protocol.Refusal;
import org.camdoop.shuffle.protocol.ShuffleCodes;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.shuffle.protocol.StreamItem;
import org.camdoop.shuffle.testing.NodeManagerDirs;
import org.camdoop.shuffle.testing.WordCounts;
import org.camdoop.torus.trees.TreeChoice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A task names only (job, attempt, partitions): a real daemon finds the files where the NodeManager's shuffle would
 * and refuses, with an exact logged message naming the attempt, files of another user, symbolic links, named pipes,
 * indexes of the wrong size and wrong proofs, while a legitimate job on the same daemon shuffles correctly. The files
 * are real IFile map outputs; another user's files are made by changing their owner to a numeric uid, which needs
 * root (as CI runs): without it the test fails rather than skips.
 */
class MapOutputTrustTest {
    private static final String JOB = "job_1700000000000_0042";
    private static final byte[] SECRET = "the job's shuffle secret".getBytes();
    /** A uid no one on the machine has. */
    private static final int STRANGER = 4242;

    @TempDir
    Path dir;

    private static String attempt(int map) {
        return String.format("attempt_1700000000000_0042_m_%06d_0", map);
    }

    private Path localDir() {
        return dir.resolve("nm");
    }

    private CamdoopDaemon startDaemon() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        Path topology = Files.writeString(dir.resolve("topology"), "shape 1x1x1\n0,0,0 127.0.0.1:" + port + "\n");
        Configuration c = new Configuration(false);
        c.set("camdoop.topology.file", topology.toString());
        c.set("camdoop.cluster.secret", "map-output-trust-test-cluster-secret-32-bytes");
        c.set(DaemonConfig.COORDINATE, "0,0,0");
        c.set(DaemonConfig.VERTEX_THREADS, "1");
        c.set(JobsConfig.JAR_CACHE_DIR, dir.resolve("jars").toString());
        c.set(JobsConfig.LOCAL_DIRS, localDir().toString());
        CamdoopDaemon d = CamdoopDaemon.start(c);
        d.tokens().add(JOB, SECRET, NodeManagerDirs.USER);
        return d;
    }

    private static JobConf job() {
        JobConf job = WordCounts.jobWithCombiner(2);
        job.set("mapreduce.job.id", JOB);
        return job;
    }

    private static DaemonClient connectAndRegisterJob(CamdoopDaemon d, JobConf job) throws IOException {
        DaemonClient client = DaemonClient.connect(new org.camdoop.shuffle.client.DaemonAddress(d.localSocket(),
                org.camdoop.shuffle.protocol.UnixPeers.processUser()));
        JobSpec spec = JobSpec.fromJobConf(job, List.of());
        client.registerJob(spec, JobTokenProof.forSpec(SECRET, spec));
        return client;
    }

    private static String register(DaemonClient client, String attempt, byte[] secret) throws IOException {
        MapOutput output = new MapOutput(JOB, attempt, 2);
        return client.registerMapOutput(new MapOutputRegistration(output, JobTokenProof.forMapOutput(secret, output)));
    }

    private static String refusal(DaemonClient client, String attempt) {
        DaemonRefusedException e = assertThrows(DaemonRefusedException.class,
                () -> register(client, attempt, SECRET), attempt);
        assertEquals(Refusal.REFUSED, e.refusal(), e.getMessage());
        return e.getMessage();
    }

    private static String prefix(String attempt) {
        return "map output registration for " + attempt + " refused: ";
    }

    @Test
    void forgedFilesAreRefusedAndALegitimateJobOnTheSameDaemonShufflesCorrectly() throws Exception {
        JobConf job = job();
        List<Map<String, Integer>> legit = List.of(Map.of("apple", 3, "pear", 1, "fig", 2),
                Map.of("apple", 1, "kiwi", 5));
        Map<String, Integer> victim = Map.of("secret", 99, "apple", 1000);
        try (CamdoopDaemon d = startDaemon(); DaemonClient client = connectAndRegisterJob(d, job)) {
            // Another user's file.out (as a victim job's, mode 640 or not): refused, whatever the index says.
            Path stranger = NodeManagerDirs.writeWordCounts(job, localDir(), JOB, attempt(10), victim);
            Files.setAttribute(stranger.resolve("file.out"), "unix:uid", STRANGER, LinkOption.NOFOLLOW_LINKS);
            Files.setAttribute(stranger.resolve("file.out"), "unix:gid", STRANGER, LinkOption.NOFOLLOW_LINKS);
            assertEquals(prefix(attempt(10)) + "file.out " + stranger.resolve("file.out") + " is owned by " + STRANGER
                    + ", not by " + NodeManagerDirs.USER, refusal(client, attempt(10)));
            // Another user's index.
            Path strangerIndex = NodeManagerDirs.writeWordCounts(job, localDir(), JOB, attempt(11), victim);
            Files.setAttribute(strangerIndex.resolve("file.out.index"), "unix:uid", STRANGER,
                    LinkOption.NOFOLLOW_LINKS);
            assertEquals(prefix(attempt(11)) + "file.out.index " + strangerIndex.resolve("file.out.index")
                    + " is owned by " + STRANGER + ", not by " + NodeManagerDirs.USER, refusal(client, attempt(11)));

            // file.out a symbolic link to a file the task may not name (here a real map output elsewhere).
            Path elsewhere = NodeManagerDirs.writeWordCounts(job, dir.resolve("elsewhere"), JOB, attempt(12), victim);
            Path linked = NodeManagerDirs.attemptDir(localDir(), JOB, attempt(12));
            Files.copy(elsewhere.resolve("file.out.index"), linked.resolve("file.out.index"));
            Files.createSymbolicLink(linked.resolve("file.out"), elsewhere.resolve("file.out"));
            assertEquals(prefix(attempt(12)) + "file.out " + linked.resolve("file.out") + " is a symbolic link",
                    refusal(client, attempt(12)));

            // A named pipe as the index: refused at once, nothing blocks on it.
            Path piped = NodeManagerDirs.attemptDir(localDir(), JOB, attempt(13));
            Files.copy(elsewhere.resolve("file.out"), piped.resolve("file.out"));
            mkfifo(piped.resolve("file.out.index"));
            String pipeRefusal = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> refusal(client, attempt(13)));
            assertEquals(prefix(attempt(13)) + "file.out.index " + piped.resolve("file.out.index")
                    + " is not a regular file (a named pipe, socket or device)", pipeRefusal);

            // A directory as file.out.
            Path directory = NodeManagerDirs.attemptDir(localDir(), JOB, attempt(14));
            Files.copy(elsewhere.resolve("file.out.index"), directory.resolve("file.out.index"));
            Files.createDirectory(directory.resolve("file.out"));
            assertEquals(prefix(attempt(14)) + "file.out " + directory.resolve("file.out")
                    + " is not a regular file (a directory)", refusal(client, attempt(14)));

            // An index of three partitions for a job of two reduces.
            JobConf three = WordCounts.jobWithCombiner(3);
            Path wrongSize = NodeManagerDirs.writeWordCounts(three, localDir(), JOB, attempt(15), victim);
            assertEquals(prefix(attempt(15)) + "file.out.index " + wrongSize.resolve("file.out.index") + " is 80 bytes;"
                    + " 2 partitions need 56", refusal(client, attempt(15)));

            // Nothing where the NodeManager would have put it.
            assertEquals(prefix(attempt(16)) + "no local dir holds usercache/" + NodeManagerDirs.USER + "/appcache/"
                    + "application_1700000000000_0042/output/" + attempt(16) + "/file.out.index",
                    refusal(client, attempt(16)));

            // A proof made without the job's secret.
            NodeManagerDirs.writeWordCounts(job, localDir(), JOB, attempt(17), victim);
            DaemonRefusedException badProof = assertThrows(DaemonRefusedException.class,
                    () -> register(client, attempt(17), "a guess".getBytes()));
            assertEquals(Refusal.BAD_PROOF, badProof.refusal());
            assertEquals("map output registration for " + attempt(17) + " refused: bad job token proof",
                    badProof.getMessage());

            // The legitimate maps of the same job on the same daemon.
            TreeSet<String> expected = new TreeSet<>();
            for (int m = 0; m < legit.size(); m++) {
                NodeManagerDirs.writeWordCounts(job, localDir(), JOB, attempt(m), legit.get(m));
                assertEquals(attempt(m) + " recorded", register(client, attempt(m), SECRET));
                expected.add(attempt(m));
            }
            for (int partition = 0; partition < 2; partition++) {
                assertEquals(WordCounts.reference(legit, partition, 2), shuffle(client, partition, expected));
            }
        }
    }

    @Test
    void aFileSwappedForALinkAfterRegistrationFailsTheShuffleCleanly() throws Exception {
        JobConf job = job();
        try (CamdoopDaemon d = startDaemon(); DaemonClient client = connectAndRegisterJob(d, job)) {
            Path files = NodeManagerDirs.writeWordCounts(job, localDir(), JOB, attempt(0), Map.of("apple", 1));
            assertEquals(attempt(0) + " recorded", register(client, attempt(0), SECRET));
            Path moved = Files.move(files.resolve("file.out"), dir.resolve("moved.out"));
            Files.createSymbolicLink(files.resolve("file.out"), moved);

            TreeSet<String> attempts = new TreeSet<>(List.of(attempt(0)));
            client.startShuffle(JOB, 0, 0, ShuffleMode.CAMDOOP, TreeChoice.SIX, attempts, proof(0, attempts));
            client.streamTimeout(30_000);
            StreamItem n;
            while ((n = client.next()) instanceof StreamItem.Chunk) {
                // nothing may arrive before the failure
            }
            StreamItem.Failed failed = assertInstanceOf(StreamItem.Failed.class, n, n::toString);
            assertTrue(failed.reason().contains("map output of " + attempt(0) + " refused: file.out "
                    + files.resolve("file.out") + " is a symbolic link"), failed.reason());
        }
    }

    /** The reduce task's proof over the daemon's nonce for a shuffle of {@code partition}. */
    private static java.util.function.UnaryOperator<byte[]> proof(int partition, TreeSet<String> attempts) {
        return nonce -> JobTokenProof.forShuffle(SECRET, JOB, partition, 0, ShuffleCodes.code(ShuffleMode.CAMDOOP),
                ShuffleCodes.code(TreeChoice.SIX), nonce, attempts);
    }

    /** The reducer's view of one partition: word to sum. */
    private static SortedMap<String, Long> shuffle(DaemonClient client, int partition, TreeSet<String> attempts)
            throws IOException {
        client.startShuffle(JOB, partition, 0, ShuffleMode.CAMDOOP, TreeChoice.SIX, attempts, proof(partition, attempts));
        ChunkQueueRun records = new ChunkQueueRun("client");
        StreamItem n;
        while ((n = client.next()) instanceof StreamItem.Chunk c) {
            records.offer(c.bytes(), c.length());
        }
        StreamItem.End end = assertInstanceOf(StreamItem.End.class, n, n::toString);
        assertEquals(new ArrayList<>(attempts), List.copyOf(end.end().attempts().attempts()));
        records.finish();
        SortedMap<String, Long> sums = new TreeMap<>((a, b) -> new Text(a).compareTo(new Text(b)));
        while (records.advance() == Advance.RECORD) {
            sums.merge(WordCounts.text(records.key().array(), records.key().offset(), records.key().length()),
                    (long) WordCounts.intValue(records.value().array(), records.value().offset(),
                            records.value().length()), Long::sum);
        }
        return sums;
    }

    private static void mkfifo(Path path) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
        assertEquals(0, p.waitFor(), "mkfifo " + path);
        assertTrue(Files.readAttributes(path, java.nio.file.attribute.BasicFileAttributes.class,
                LinkOption.NOFOLLOW_LINKS).isOther(), path + " is a named pipe");
    }
}
