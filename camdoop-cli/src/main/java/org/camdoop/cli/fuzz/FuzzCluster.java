package org.camdoop.cli.fuzz;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;
import org.camdoop.shuffle.client.DaemonAddress;
import org.camdoop.shuffle.client.DaemonClient;
import org.camdoop.shuffle.daemon.CamdoopDaemon;
import org.camdoop.shuffle.daemon.DaemonConfig;
import org.camdoop.shuffle.jobs.JobsConfig;
import org.camdoop.shuffle.jobs.MapOutputLocator;
import org.camdoop.shuffle.protocol.JobSpec;
import org.camdoop.shuffle.protocol.JobTokenProof;
import org.camdoop.shuffle.protocol.MapOutput;
import org.camdoop.shuffle.protocol.MapOutputRegistration;
import org.camdoop.shuffle.protocol.ShuffleCodes;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.shuffle.protocol.StreamItem;
import org.camdoop.shuffle.protocol.UnixPeers;
import org.camdoop.torus.trees.TreeChoice;
import org.camdoop.workload.KeyModel;
import org.camdoop.workload.ServerMapOutput;
import org.camdoop.workload.SyntheticWorkload;
import org.camdoop.workload.WorkloadSpec;

/**
 * What the fuzzer attacks: real daemons of a 3x1x1 torus, each its own {@link CamdoopDaemon} with a TCP torus port on
 * loopback and a Unix socket, and a legitimate word-count-like job registered the way tasks register it (the job's
 * spec and every map output over the local channel, with job token proofs; map outputs as IFiles in the NodeManager
 * layout). {@link #shuffle} runs every partition of the job through the torus and returns a digest of what the
 * reducers received, so a run under attack can be compared with one before it.
 */
final class FuzzCluster implements AutoCloseable {

    static final int SERVERS = 3;
    static final String JOB = "job_1700000000000_0777";
    private static final byte[] SECRET = "the fuzzed job's shuffle secret".getBytes(java.nio.charset.StandardCharsets.UTF_8);

    private final List<CamdoopDaemon> daemons;
    private final List<InetSocketAddress> torusPorts;
    private final SortedSet<String> attempts;
    private final int reducers;

    private FuzzCluster(List<CamdoopDaemon> daemons, List<InetSocketAddress> torusPorts, SortedSet<String> attempts,
            int reducers) {
        this.daemons = daemons;
        this.torusPorts = torusPorts;
        this.attempts = attempts;
        this.reducers = reducers;
    }

    /** Starts the daemons under {@code work} and registers the job with {@code bytesPerServer} of map output each. */
    static FuzzCluster start(Path work, long bytesPerServer, long seed) throws IOException, InterruptedException {
        List<InetSocketAddress> ports = new ArrayList<>();
        StringBuilder topology = new StringBuilder("shape " + SERVERS + "x1x1\n");
        for (int s = 0; s < SERVERS; s++) {
            try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                ports.add(new InetSocketAddress(InetAddress.getLoopbackAddress(), probe.getLocalPort()));
                topology.append(s).append(",0,0 127.0.0.1:").append(probe.getLocalPort()).append('\n');
            }
        }
        Path topologyFile = Files.writeString(work.resolve("topology"), topology);
        int reducers = SERVERS;
        WorkloadSpec spec = WorkloadSpec.zipf(SERVERS, new KeyModel.Zipf(200_000, 0.99), bytesPerServer, reducers,
                seed);
        SyntheticWorkload workload = SyntheticWorkload.generate(spec, work.resolve("workload"));
        JobConf job = job(spec);
        List<CamdoopDaemon> daemons = new ArrayList<>();
        SortedSet<String> attempts = new TreeSet<>();
        try {
            for (int s = 0; s < SERVERS; s++) {
                daemons.add(CamdoopDaemon.start(conf(work, topologyFile, s)));
            }
            JobSpec jobSpec = JobSpec.fromJobConf(job, List.of());
            for (int s = 0; s < SERVERS; s++) {
                CamdoopDaemon d = daemons.get(s);
                d.tokens().add(JOB, SECRET, UnixPeers.processUser());
                String attempt = String.format("attempt_1700000000000_0777_m_%06d_0", s);
                placeMapOutput(workload.manifest().servers().get(s), localDir(work, s), attempt);
                try (DaemonClient c = connect(d)) {
                    c.registerJob(jobSpec, JobTokenProof.forSpec(SECRET, jobSpec));
                    MapOutput out = new MapOutput(JOB, attempt, reducers);
                    c.registerMapOutput(new MapOutputRegistration(out, JobTokenProof.forMapOutput(SECRET, out)));
                }
                attempts.add(attempt);
            }
            return new FuzzCluster(daemons, ports, attempts, reducers);
        } catch (IOException | RuntimeException e) {
            for (CamdoopDaemon d : daemons) {
                d.close();
            }
            throw e;
        }
    }

    private static JobConf job(WorkloadSpec spec) {
        JobConf job = spec.mapOutputJob();
        job.set("mapreduce.job.id", JOB);
        job.setUseNewReducer(true);
        job.setClass("mapreduce.job.combine.class", IntSumReducer.class, Reducer.class);
        job.setOutputKeyClass(org.apache.hadoop.io.Text.class);
        job.setOutputValueClass(IntWritable.class);
        return job;
    }

    private static Configuration conf(Path work, Path topology, int server) {
        Configuration c = new Configuration(false);
        c.set("camdoop.topology.file", topology.toString());
        c.set("camdoop.cluster.secret", "the-fuzzed-torus-cluster-secret-of-32-bytes");
        c.set(DaemonConfig.COORDINATE, server + ",0,0");
        c.set(DaemonConfig.VERTEX_THREADS, "1");
        c.set(JobsConfig.LOCAL_DIRS, localDir(work, server).toString());
        return c;
    }

    private static Path localDir(Path work, int server) {
        return work.resolve("nm-local-" + server);
    }

    /** Puts a generated map output where a NodeManager's task would have left it. */
    private static void placeMapOutput(ServerMapOutput output, Path localDir, String attempt) throws IOException {
        Path dir = Files.createDirectories(localDir.resolve(
                MapOutputLocator.attemptDir(UnixPeers.processUser(), JOB, attempt)));
        Files.copy(output.file(), dir.resolve("file.out"), StandardCopyOption.REPLACE_EXISTING);
        Files.copy(output.index(), dir.resolve("file.out.index"), StandardCopyOption.REPLACE_EXISTING);
    }

    private static DaemonClient connect(CamdoopDaemon d) throws IOException {
        return DaemonClient.connect(new DaemonAddress(d.localSocket(), UnixPeers.processUser()));
    }

    /**
     * Runs every partition of the job (partition p rooted at server p, as a reduce task there would ask) and returns
     * a SHA-256 over the records each reducer received, in partition order.
     *
     * @param attempt the reduce attempt number (a fresh one per run: a daemon runs a shuffle of an attempt once)
     */
    String shuffle(int attempt) throws IOException {
        MessageDigest digest = org.camdoop.shuffle.protocol.JarDigest.sha256();
        for (int p = 0; p < reducers; p++) {
            int partition = p;
            try (DaemonClient c = connect(daemons.get(p % SERVERS))) {
                c.streamTimeout(60_000);
                c.startShuffle(JOB, partition, attempt, ShuffleMode.CAMDOOP, TreeChoice.SIX, attempts,
                        nonce -> JobTokenProof.forShuffle(SECRET, JOB, partition, attempt,
                                ShuffleCodes.code(ShuffleMode.CAMDOOP), ShuffleCodes.code(TreeChoice.SIX), nonce,
                                attempts));
                StreamItem n;
                while ((n = c.next()) instanceof StreamItem.Chunk chunk) {
                    digest.update(chunk.bytes(), 0, chunk.length());
                }
                if (!(n instanceof StreamItem.End)) {
                    throw new IOException("partition " + partition + " of attempt " + attempt + " ended with " + n);
                }
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    List<CamdoopDaemon> daemons() {
        return daemons;
    }

    List<InetSocketAddress> torusPorts() {
        return torusPorts;
    }

    List<Path> localSockets() {
        return daemons.stream().map(CamdoopDaemon::localSocket).toList();
    }

    @Override
    public void close() throws InterruptedException {
        for (CamdoopDaemon d : daemons) {
            d.close();
        }
    }
}
