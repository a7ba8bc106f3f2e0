package org.camdoop.shuffle.hadoop;

import java.io.IOException;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapOutputCollector;
import org.apache.hadoop.mapred.MapOutputFile;
import org.apache.hadoop.mapred.MapTask;
import org.camdoop.shuffle.protocol.JobTokenProof;
import org.camdoop.shuffle.protocol.MapOutput;
import org.camdoop.shuffle.protocol.MapOutputRegistration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The map side ({@code mapreduce.job.map.output.collector.class}): Hadoop's own {@link MapTask.MapOutputBuffer} sorts,
 * spills, combines and writes the final {@code file.out}; once it has ({@link #flush()}), this registers the job and
 * that output with the local daemon, synchronously, before the task reports done. A failed registration is one WARN
 * line and nothing more: the stock ShuffleHandler still serves the file and the reducers fall back to the stock
 * shuffle. In local mode (LocalJobRunner) and in an uber job nothing is registered: the reduce side reads
 * {@code localMapFiles} (an embedded torus in the task's JVM serves it).
 *
 * <p>Hadoop calls it from the map task's thread only (the delegate's spill thread is its own business).
 */
public final class CamdoopMapOutputCollector<K, V> implements MapOutputCollector<K, V> {
    private static final Logger LOG = LoggerFactory.getLogger(CamdoopMapOutputCollector.class);

    private final MapTask.MapOutputBuffer<K, V> delegate = new MapTask.MapOutputBuffer<>();
    private Context context;

    @Override
    public void init(Context context) throws IOException, ClassNotFoundException {
        this.context = context;
        delegate.init(context);
    }

    @Override
    public void collect(K key, V value, int partition) throws IOException, InterruptedException {
        delegate.collect(key, value, partition);
    }

    @Override
    public void flush() throws IOException, InterruptedException, ClassNotFoundException {
        delegate.flush();
        JobConf job = context.getJobConf();
        if (LocalMode.isLocal(job) || LocalMode.isUberTask(job) || job.getNumReduceTasks() == 0) {
            return;
        }
        MapTask task = context.getMapTask();
        if (CamdoopJobConfig.encryptsIntermediateData(job)) {
            LOG.info("Camdoop: map output of {} not registered: {}; the stock shuffle serves it", task.getTaskID(),
                    CamdoopJobConfig.ENCRYPTED_REASON);
            return;
        }
        try {
            MapOutputFile files = task.getMapOutputFile();
            context.getReporter().incrCounter(CamdoopCounters.GROUP, CamdoopCounters.MAP_OUTPUT_BYTES,
                    java.nio.file.Files.size(java.nio.file.Path.of(localPath(files.getOutputFile()))));
            // Names no file: the daemon finds file.out where the NodeManager's shuffle would, and checks its owner.
            register(job, new MapOutput(task.getJobID().toString(), task.getTaskID().toString(),
                    job.getNumReduceTasks()));
        } catch (IOException | RuntimeException e) {
            LOG.warn("Camdoop: map output of {} not registered with the local daemon ({}); reducers will use the stock"
                    + " shuffle for it", task.getTaskID(), e.getMessage());
        }
    }

    /** Registers the job and {@code output} with the task's daemon; package-visible for tests. */
    static void register(JobConf job, MapOutput output) throws IOException {
        try (DaemonSession session = DaemonSession.open(job)) {
            String result = session.client().registerMapOutput(
                    new MapOutputRegistration(output, JobTokenProof.forMapOutput(session.secret(), output)));
            LOG.info("Camdoop: {}", result);
        }
    }

    /** A local file system path: no scheme. */
    private static String localPath(org.apache.hadoop.fs.Path p) {
        return p.toUri().getPath();
    }

    @Override
    public void close() throws IOException, InterruptedException {
        delegate.close();
    }
}
