package org.camdoop.shuffle.endpoint;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
import org.camdoop.shuffle.aggregation.Advance;
import org.camdoop.shuffle.aggregation.ChunkQueueRun;
import org.camdoop.shuffle.client.DaemonAddress;
import org.camdoop.shuffle.client.DaemonClient;
import org.camdoop.shuffle.daemon.CamdoopDaemon;
import org.camdoop.shuffle.daemon.DaemonConfig;
import org.camdoop.shuffle.jobs.JobsConfig;
import org.camdoop.shuffle.protocol.JobSpec;
import org.camdoop.shuffle.protocol.JobTokenProof;
import org.camdoop.shuffle.protocol.MapOutput;
import org.camdoop.shuffle.protocol.MapOutputRegistration;
import org.camdoop.shuffle.protocol.ShuffleCodes;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.shuffle.protocol.StreamItem;
import org.camdoop.shuffle.protocol.UnixPeers;
import org.camdoop.shuffle.testing.NodeManagerDirs;
import org.camdoop.shuffle.testing.WordCounts;
import org.camdoop.torus.trees.TreeChoice;

/** A real one-server daemon on a Unix domain socket, and a legitimate word-count job run through it. */
final class LocalDaemonFixture {
    static final byte[] SECRET = "shuffle secret".getBytes();
    /** The word counts {@link #runWordCount}'s one map output holds, and so what a correct shuffle of it delivers. */
    static final Map<String, Long> WORD_COUNTS = Map.of("apple", 3L, "pear", 2L);

    private LocalDaemonFixture() {}

    /** A daemon on {@code c} that knows job {@code jobId}'s token ({@link #SECRET}), as this process's user's job. */
    static CamdoopDaemon startKnowing(Configuration c, String jobId) throws Exception {
        CamdoopDaemon d = CamdoopDaemon.start(c);
        d.tokens().add(jobId, SECRET, UnixPeers.processUser());
        return d;
    }

    /** The configuration of a 1x1x1 daemon whose files all live under {@code dir}. */
    static Configuration conf(Path dir) throws IOException {
        StringBuilder t = new StringBuilder("shape 1x1x1\n");
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            t.append("0,0,0 127.0.0.1:").append(probe.getLocalPort()).append('\n');
        }
        Path topology = dir.resolve("topology");
        Files.writeString(topology, t);
        Configuration c = new Configuration(false);
        c.set("camdoop.topology.file", topology.toString());
        c.set("camdoop.cluster.secret", "local-daemon-fixture-cluster-secret-32b");
        c.set(DaemonConfig.COORDINATE, "0,0,0");
        c.set(DaemonConfig.VERTEX_THREADS, "1");
        c.set(JobsConfig.LOCAL_DIRS, dir.resolve("nm-local").toString());
        return c;
    }

    static DaemonClient connect(CamdoopDaemon d) throws IOException {
        return DaemonClient.connect(new DaemonAddress(d.localSocket(), UnixPeers.processUser()));
    }

    /**
     * Runs job {@code jobId} (token already given to the daemon) through {@code d}: registers its spec and one map
     * output, roots partition 0, and returns the reduced word counts the stream delivered.
     */
    static SortedMap<String, Long> runWordCount(CamdoopDaemon d, Path dir, String jobId) throws Exception {
        String attempt = "attempt_" + jobId.substring(4) + "_m_000000_0";
        JobConf job = WordCounts.jobWithCombiner(1);
        job.set("mapreduce.job.id", jobId);
        JobSpec spec = JobSpec.fromJobConf(job, List.of());
        // Where the NodeManager's layout puts the attempt's output: the daemon derives the path itself.
        Map<String, Integer> counts = new TreeMap<>();
        WORD_COUNTS.forEach((word, n) -> counts.put(word, Math.toIntExact(n)));
        NodeManagerDirs.writeWordCounts(job, dir.resolve("nm-local"), jobId, attempt, counts);
        MapOutput output = new MapOutput(jobId, attempt, 1);
        try (DaemonClient client = connect(d)) {
            client.registerJob(spec, JobTokenProof.forSpec(SECRET, spec));
            client.registerMapOutput(new MapOutputRegistration(output, JobTokenProof.forMapOutput(SECRET, output)));
            TreeSet<String> attempts = new TreeSet<>(List.of(attempt));
            client.startShuffle(jobId, 0, 0, ShuffleMode.CAMDOOP, TreeChoice.SIX, attempts,
                    nonce -> JobTokenProof.forShuffle(SECRET, jobId, 0, 0, ShuffleCodes.code(ShuffleMode.CAMDOOP),
                            ShuffleCodes.code(TreeChoice.SIX), nonce, attempts));
            return drain(client);
        }
    }

    /** Reads a started stream to its end; fails unless it ends with End. */
    static SortedMap<String, Long> drain(DaemonClient client) throws IOException {
        ChunkQueueRun records = new ChunkQueueRun("client");
        StreamItem n;
        while ((n = client.next()) instanceof StreamItem.Chunk c) {
            records.offer(c.bytes(), c.length());
        }
        if (!(n instanceof StreamItem.End)) {
            throw new AssertionError("stream ended with " + n);
        }
        records.finish();
        SortedMap<String, Long> sums = new TreeMap<>();
        while (records.advance() == Advance.RECORD) {
            sums.put(WordCounts.text(records.key().array(), records.key().offset(), records.key().length()),
                    (long) WordCounts.intValue(records.value().array(), records.value().offset(),
                            records.value().length()));
        }
        return sums;
    }
}
