package org.camdoop.shuffle.hadoop;

import java.io.IOException;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapOutputCollector;
import org.apache.hadoop.mapred.MapOutputFile;
import org.apache.hadoop.mapred.MapTask;
import org.camdoop.shuffle.protocol.AuxServiceName;
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
 * shuffle. In local mode (LocalJobRunner) nothing is registered: the reduce side reads {@code localMapFiles}.
 *
 * <p>Hadoop calls it from the map task's thread only (the delegate's spill thread is its own business).
 */
public final class CamdoopMapOutputCollector<K, V> implements MapOutputCollector<K, V> {
    private static final Logger LOG = LoggerFactory.getLogger(CamdoopMapOutputCollector.class);

    private static final String PROVIDER_SERVICES = org.apache.hadoop.mapreduce.MRJobConfig
            .MAPREDUCE_JOB_SHUFFLE_PROVIDER_SERVICES;
    private static final String AUX_SERVICE = AuxServiceName.NAME;

    private final MapTask.MapOutputBuffer<K, V> delegate = new MapTask.MapOutputBuffer<>();
    private Context context;

    @Override
    public void init(Context context) throws IOException, ClassNotFoundException {
        this.context = context;
        delegate.init(context);
        JobConf job = context.getJobConf();
        if (!LocalMode.isLocal(job) && !job.getTrimmedStringCollection(PROVIDER_SERVICES).contains(AUX_SERVICE)) {
            // Without it the NodeManager never learns the job's secret and every registration is refused.
            LOG.warn("Camdoop: {} does not list {}: the daemon cannot verify this job; reducers will use the stock"
                    + " shuffle", PROVIDER_SERVICES, AUX_SERVICE);
        }
    }

    @Override
    public void collect(K key, V value, int partition) throws IOException, InterruptedException {
        delegate.collect(key, value, partition);
    }

    @Override
    public void flush() throws IOException, InterruptedException, ClassNotFoundException {
        delegate.flush();
        JobConf job = context.getJobConf();
        if (LocalMode.isLocal(job) || job.getNumReduceTasks() == 0) {
            return;
        }
        MapTask task = context.getMapTask();
        try {
            MapOutputFile files = task.getMapOutputFile();
            context.getReporter().incrCounter(CamdoopCounters.GROUP, CamdoopCounters.MAP_OUTPUT_BYTES,
                    java.nio.file.Files.size(java.nio.file.Path.of(localPath(files.getOutputFile()))));
            register(job, new MapOutput(task.getJobID().toString(), task.getTaskID().toString(),
                    localPath(files.getOutputFile()), localPath(files.getOutputIndexFile()), job.getNumReduceTasks()));
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

    /** The daemon reads the file from the local file system: a plain path, no scheme. */
    static String localPath(org.apache.hadoop.fs.Path p) {
        return p.toUri().getPath();
    }

    @Override
    public void close() throws IOException, InterruptedException {
        delegate.close();
    }
}
