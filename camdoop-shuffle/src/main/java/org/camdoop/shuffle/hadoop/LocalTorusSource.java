package org.camdoop.shuffle.hadoop;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapOutputFile;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.camdoop.shuffle.daemon.EmbeddedTorus;
import org.camdoop.shuffle.local.ShuffleKeys;
import org.camdoop.shuffle.service.RootStream;
import org.camdoop.shuffle.service.ShuffleSpec;
import org.camdoop.shuffle.service.vertex.LocalMapOutput;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.TransportConfig;

/**
 * Local mode (LocalJobRunner): no daemons and no completion events, only {@code localMapFiles}. An embedded torus in
 * this JVM serves the reduce: map output i (in attempt order) sits on server i mod N and the root is server
 * partition mod N, so data really crosses the torus and is combined on the way. One torus per reduce attempt, closed
 * with the stream. Not thread-safe: the reduce task's thread.
 */
final class LocalTorusSource implements StreamSource {
    /** Largest default shape: the maps spread over at most 3x3x3 servers. */
    private static final int MAX_DEFAULT_SERVERS = 27;
    private static final Duration WAIT = Duration.ofSeconds(1);

    private final EmbeddedTorus torus;
    private final RootStream root;
    private boolean closed;

    private LocalTorusSource(EmbeddedTorus torus, RootStream root) {
        this.torus = torus;
        this.root = root;
    }

    static LocalTorusSource start(JobConf job, org.apache.hadoop.mapreduce.TaskAttemptID reduce,
            Map<TaskAttemptID, MapOutputFile> mapFiles) throws IOException, InterruptedException {
        List<TaskAttemptID> maps = new ArrayList<>(mapFiles.keySet());
        maps.sort(Comparator.comparing(TaskAttemptID::toString));
        TorusShape shape = shape(job, maps.size());
        int servers = servers(job, maps.size());
        FailureView view = FailureView.none(shape);
        for (int s = servers; s < shape.size(); s++) {
            // forServers may round up: the coordinates past the last server are vacant, as on a real cluster.
            view = view.withVacant(shape.coord(s));
        }
        TransportConfig config = TransportConfig.of(Map.of(TransportConfig.CLUSTER_SECRET, "camdoop-local-mode"));
        EmbeddedTorus torus = EmbeddedTorus.start(view, config, EmbeddedTorus.Wiring.IN_JVM, 1);
        try {
            String jobId = reduce.getJobID().toString();
            torus.registerJob(jobId, job);
            TreeSet<String> expected = new TreeSet<>();
            for (int i = 0; i < maps.size(); i++) {
                MapOutputFile files = mapFiles.get(maps.get(i));
                torus.addMapOutput(i % servers, jobId, new LocalMapOutput(maps.get(i).toString(),
                        files.getOutputFile(), files.getOutputIndexFile()));
                expected.add(maps.get(i).toString());
            }
            int partition = reduce.getTaskID().getId();
            int rootServer = partition % servers;
            ShuffleSpec spec = new ShuffleSpec(ShuffleKeys.jobKey(jobId), jobId, partition, reduce.getId(),
                    shape.coord(rootServer), CamdoopJobConfig.mode(job), CamdoopJobConfig.trees(job), expected);
            return new LocalTorusSource(torus, torus.service(rootServer).startShuffle(spec));
        } catch (IOException | RuntimeException e) {
            torus.close();
            throw e;
        }
    }

    /** {@code camdoop.local.shape}, else the smallest shape for min(maps, 27) servers. */
    static TorusShape shape(JobConf job, int maps) {
        String configured = job.getTrimmed(CamdoopJobConfig.LOCAL_SHAPE, CamdoopJobConfig.DEFAULT_LOCAL_SHAPE);
        if (!configured.isEmpty()) {
            return TorusShape.parse(configured);
        }
        return TorusShape.forServers(servers(job, maps));
    }

    /** The live servers: all of a configured shape, else min(maps, 27). */
    private static int servers(JobConf job, int maps) {
        String configured = job.getTrimmed(CamdoopJobConfig.LOCAL_SHAPE, CamdoopJobConfig.DEFAULT_LOCAL_SHAPE);
        if (!configured.isEmpty()) {
            return TorusShape.parse(configured).size();
        }
        return Math.max(1, Math.min(maps, MAX_DEFAULT_SERVERS));
    }

    @Override
    public RootStream.Next next() throws InterruptedException {
        RootStream.Next n;
        while ((n = root.next(WAIT)) instanceof RootStream.Timeout) {
            // Keep waiting: the reducer is blocked on its input, the torus is working.
        }
        return n;
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            torus.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while stopping the local torus", e);
        }
    }
}
