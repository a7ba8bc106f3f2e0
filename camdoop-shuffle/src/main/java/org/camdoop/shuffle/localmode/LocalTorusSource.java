package org.camdoop.shuffle.localmode;

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
import org.camdoop.shuffle.protocol.ShuffleKeys;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.protocol.StreamSource;
import org.camdoop.shuffle.protocol.StreamItem;
import org.camdoop.shuffle.service.RootStream;
import org.camdoop.shuffle.service.vertex.LocalMapOutput;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.TransportConfig;
import org.camdoop.torus.trees.TreeChoice;

/**
 * Local mode (LocalJobRunner): no daemons and no completion events, only {@code localMapFiles}. An embedded torus in
 * this JVM serves the reduce: map output i (in attempt order) sits on server i mod N and the root is server
 * partition mod N, so data really crosses the torus and is combined on the way. One torus per reduce attempt, closed
 * with the stream. Not thread-safe: the reduce task's thread.
 */
public final class LocalTorusSource implements StreamSource {
    private static final Duration WAIT = Duration.ofSeconds(1);

    private final EmbeddedTorus torus;
    private final RootStream root;
    private boolean closed;

    private LocalTorusSource(EmbeddedTorus torus, RootStream root) {
        this.torus = torus;
        this.root = root;
    }

    /**
     * Starts a torus of {@code shape} with {@code servers} live servers (the rest vacant), places the map outputs on
     * it and starts the reduce attempt's shuffle at its root.
     */
    public static LocalTorusSource start(JobConf job, org.apache.hadoop.mapreduce.TaskAttemptID reduce,
            Map<TaskAttemptID, MapOutputFile> mapFiles, TorusShape shape, int servers, ShuffleMode mode,
            TreeChoice trees) throws IOException, InterruptedException {
        List<TaskAttemptID> maps = new ArrayList<>(mapFiles.keySet());
        maps.sort(Comparator.comparing(TaskAttemptID::toString));
        FailureView view = FailureView.none(shape);
        for (int s = servers; s < shape.size(); s++) {
            // forServers may round up: the coordinates past the last server are vacant, as on a real cluster.
            view = view.withVacant(shape.coord(s));
        }
        TransportConfig config = TransportConfig.of(Map.of(TransportConfig.CLUSTER_SECRET,
                "camdoop-local-mode-in-one-jvm-no-peers-to-trust"));
        EmbeddedTorus torus = EmbeddedTorus.start(view, config, EmbeddedTorus.Wiring.IN_JVM, 1);
        try {
            String jobId = reduce.getJobID().toString();
            torus.registerJob(jobId, job);
            TreeSet<String> expected = new TreeSet<>();
            for (int i = 0; i < maps.size(); i++) {
                MapOutputFile files = mapFiles.get(maps.get(i));
                // The index beside the output, as Hadoop's LocalFetcher finds it: an uber task's reducer gets
                // RenamedMapOutputFiles, whose getOutputIndexFile() throws.
                org.apache.hadoop.fs.Path output = files.getOutputFile();
                torus.addMapOutput(i % servers, jobId, new LocalMapOutput(maps.get(i).toString(), output,
                        output.suffix(".index")));
                expected.add(maps.get(i).toString());
            }
            int partition = reduce.getTaskID().getId();
            int rootServer = partition % servers;
            ShuffleSpec spec = new ShuffleSpec(ShuffleKeys.jobKey(jobId), jobId, partition, reduce.getId(),
                    shape.coord(rootServer), mode, trees, expected);
            return new LocalTorusSource(torus, torus.service(rootServer).startShuffle(spec));
        } catch (IOException | RuntimeException e) {
            torus.close();
            throw e;
        }
    }

    @Override
    public StreamItem next() throws InterruptedException {
        StreamItem n;
        while ((n = root.next(WAIT)) instanceof StreamItem.Timeout) {
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
