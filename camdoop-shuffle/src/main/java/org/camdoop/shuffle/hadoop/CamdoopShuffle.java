package org.camdoop.shuffle.hadoop;

import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapOutputFile;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.task.reduce.Shuffle;
import org.camdoop.shuffle.localmode.LocalTorusSource;
import org.camdoop.shuffle.protocol.StreamSource;
import org.camdoop.shuffle.protocol.StreamItem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reduce side ({@code mapreduce.job.reduce.shuffle.consumer.plugin.class}): learns the map attempts that count
 * ({@link CompletionEventPoller}), asks the local daemon to be the root of this reduce partition, and returns an
 * iterator over the merged stream as it arrives ({@link StreamIterator}): the reducer starts while data still flows and
 * nothing is merged to disk. In local mode an embedded torus serves it ({@link LocalTorusSource}).
 *
 * <p>Fallback: until the first item of the stream has arrived, any failure (daemon unreachable, job refused, stream
 * failed) logs one WARN line and runs Hadoop's stock {@link Shuffle} with the same context, when
 * {@link CamdoopJobConfig#FALLBACK_ENABLED}. Later failures fail the attempt with a clear message; Hadoop retries it.
 * A retry roots a fresh Camdoop shuffle (its predecessor's server may just have died), up to
 * {@link CamdoopJobConfig#CAMDOOP_ATTEMPTS} attempts in all; later attempts run the stock shuffle when fallback is
 * enabled, so a torus that keeps failing costs attempts, never the job.
 *
 * <p>Hadoop calls it from the reduce task's thread only.
 */
public final class CamdoopShuffle<K, V> implements ShuffleConsumerPlugin<K, V> {
    private static final Logger LOG = LoggerFactory.getLogger(CamdoopShuffle.class);

    private Context<K, V> context;
    private CamdoopCounters counters;
    private StreamSource source;
    /** The map completion events (on a cluster), read on when map outputs are lost; null in local mode. */
    private CompletionEventPoller events;
    private Shuffle<K, V> stock;

    @Override
    public void init(Context<K, V> context) {
        this.context = context;
        CamdoopJobConfig.checkAfterRecords(context.getJobConf());
        CamdoopJobConfig.mode(context.getJobConf());
        CamdoopJobConfig.trees(context.getJobConf());
        this.counters = new CamdoopCounters(context.getReporter(), context.getReduceShuffleBytes());
    }

    @Override
    public RawKeyValueIterator run() throws IOException, InterruptedException {
        JobConf job = context.getJobConf();
        String shuffle = "Camdoop shuffle of " + context.getReduceId();
        if (job.getBoolean(CamdoopJobConfig.FORCE_STOCK, CamdoopJobConfig.DEFAULT_FORCE_STOCK)) {
            return stock(shuffle, CamdoopJobConfig.FORCE_STOCK + " is true");
        }
        if (CamdoopJobConfig.encryptsIntermediateData(job)) {
            // Decided here, not by a daemon's refusal: nothing was registered (see the collector), nothing to ask.
            return stock(shuffle, CamdoopJobConfig.ENCRYPTED_REASON);
        }
        int attempt = context.getReduceId().getId();
        int camdoopAttempts = job.getInt(CamdoopJobConfig.CAMDOOP_ATTEMPTS, CamdoopJobConfig.DEFAULT_CAMDOOP_ATTEMPTS);
        if (attempt >= camdoopAttempts && CamdoopJobConfig.fallbackEnabled(job)) {
            // Earlier attempts may have failed mid-stream on the torus: from here on take the path that does not
            // depend on it. A first retry still runs on Camdoop: its predecessor's server may simply have died.
            return stock(shuffle, "attempt " + attempt + " of the reduce, and " + CamdoopJobConfig.CAMDOOP_ATTEMPTS
                    + "=" + camdoopAttempts + " sends later attempts to the stock shuffle");
        }
        if (context.getLocalMapFiles() == null) {
            // On a cluster only Camdoop's collector registers map outputs with the daemons: without it the torus
            // would be asked for map attempts nobody registered, and fail only after waiting for them.
            Optional<String> collector = CamdoopJobConfig.foreignCollector(job);
            if (collector.isPresent()) {
                return stock(shuffle, "the job's maps use their own output collector " + collector.get() + " ("
                        + MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR
                        + "), not Camdoop's: they registered nothing with the daemons");
            }
        }
        StreamItem first;
        try {
            source = open(job);
            first = source.next();
        } catch (IOException | RuntimeException e) {
            closeSource();
            // Some exceptions carry no message (an uber task's RenamedMapOutputFile threw a bare
            // UnsupportedOperationException, logged as "null"): name the exception then.
            return stock(shuffle, e.getMessage() != null ? e.getMessage() : e.toString());
        }
        if (first instanceof StreamItem.Failed f) {
            closeSource();
            return stock(shuffle, f.reason());
        }
        // As the stock Shuffle does: complete the copy phase and report SORT. ReduceTask completes the sort (merge)
        // phase itself when run() returns; completing it here too ran the task's progress past its last phase.
        context.getCopyPhase().complete();
        if (context.getStatus() != null && context.getReduceTask() != null) {
            // (Absent only in contexts built by tests without a task.)
            context.getStatus().setPhase(org.apache.hadoop.mapred.TaskStatus.Phase.SORT);
            context.getReduceTask().statusUpdate(context.getUmbilical());
        }
        LostMapOutputs reporter = new LostMapOutputs(job, context.getStatus(),
                () -> context.getReduceTask().statusUpdate(context.getUmbilical()));
        return new StreamIterator(source, first, counters, shuffle, new LostMapRecovery(reporter,
                job.getBoolean(CamdoopJobConfig.DETERMINISTIC_MAPS, CamdoopJobConfig.DEFAULT_DETERMINISTIC_MAPS),
                (lost, waitMs) -> {
                    if (events == null) {
                        throw new IOException("a shuffle in local mode lost map outputs " + lost);
                    }
                    return events.awaitReplacements(lost, waitMs, context.getReporter());
                }, System::nanoTime));
    }

    private StreamSource open(JobConf job) throws IOException, InterruptedException {
        Map<TaskAttemptID, MapOutputFile> local = context.getLocalMapFiles();
        if (local != null) {
            int maps = local.size();
            return LocalTorusSource.start(job, context.getReduceId(), local, LocalMode.shape(job, maps),
                    LocalMode.servers(job, maps), CamdoopJobConfig.mode(job), CamdoopJobConfig.trees(job));
        }
        events = new CompletionEventPoller(context.getUmbilical(),
                (TaskAttemptID) context.getReduceId(), job.getNumMapTasks(),
                job.getInt(CamdoopJobConfig.EVENTS_POLL_MS, CamdoopJobConfig.DEFAULT_EVENTS_POLL_MS));
        SortedSet<String> expected = events.awaitAllMaps(context.getReporter());
        context.getShuffledMapsCounter().increment(expected.size());
        return DaemonStreamSource.start(job, context.getReduceId(), expected);
    }

    /** Runs the stock shuffle, or fails when fallback is off. */
    private RawKeyValueIterator stock(String shuffle, String reason) throws IOException, InterruptedException {
        if (!CamdoopJobConfig.fallbackEnabled(context.getJobConf())) {
            throw new IOException(shuffle + " failed and " + CamdoopJobConfig.FALLBACK_ENABLED + " is false: "
                    + reason);
        }
        LOG.warn("{} not possible, running the stock shuffle: {}", shuffle, reason);
        counters.fellBack();
        stock = new Shuffle<>();
        stock.init(context);
        return stock.run();
    }

    private void closeSource() {
        if (source != null) {
            try {
                source.close();
            } catch (IOException e) {
                LOG.debug("closing the Camdoop stream: {}", e.getMessage());
            }
            source = null;
        }
    }

    @Override
    public void close() {
        closeSource();
        if (stock != null) {
            stock.close();
        }
    }
}
