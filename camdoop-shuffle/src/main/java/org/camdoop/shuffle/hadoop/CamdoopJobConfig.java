package org.camdoop.shuffle.hadoop;

import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.MapTask;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.torus.trees.TreeChoice;

/**
 * The job-side keys of the Hadoop plug-ins, with their defaults (documented in {@code conf/camdoop-site.xml}). Read
 * from the task's JobConf. Stateless.
 */
public final class CamdoopJobConfig {

    /** How the shuffle moves data: {@code camdoop}, {@code noagg} or {@code direct}. */
    public static final String SHUFFLE_MODE = "camdoop.shuffle.mode";
    public static final String DEFAULT_SHUFFLE_MODE = "camdoop";

    /** Which trees carry it: {@code six} (disjoint) or {@code shortest} (one shortest-path tree). */
    public static final String SHUFFLE_TREES = "camdoop.shuffle.trees";
    public static final String DEFAULT_SHUFFLE_TREES = "six";

    /**
     * The Unix domain socket where tasks reach their daemon; empty: the path in {@code camdoop/daemon.socket} in the
     * task's local dirs or the NodeManager local dir above them (see {@code DaemonLocator}). Same key as the daemon's
     * {@code DaemonConfig.LOCAL_SOCKET}.
     */
    public static final String DAEMON_LOCAL_SOCKET = org.camdoop.shuffle.client.DaemonLocator.SOCKET_KEY;
    public static final String DEFAULT_DAEMON_LOCAL_SOCKET = "";

    /**
     * The user the daemon must run as (its socket's owner and the SO_PEERCRED user of the process serving it); empty:
     * the owner of the directory the socket was found through (the NodeManager local dir).
     */
    public static final String DAEMON_USER = org.camdoop.shuffle.client.DaemonLocator.USER_KEY;
    public static final String DEFAULT_DAEMON_USER = "";

    /** Whether a reduce attempt runs the stock shuffle when Camdoop fails before any record reached the reducer. */
    public static final String FALLBACK_ENABLED = "camdoop.fallback.enabled";
    public static final boolean DEFAULT_FALLBACK_ENABLED = true;

    /**
     * What a failure after records reached the reducer does: {@code fail} (the attempt fails with a clear message;
     * Hadoop's retry runs, with the stock shuffle when {@link #FALLBACK_ENABLED}).
     */
    public static final String FALLBACK_AFTER_RECORDS = "camdoop.fallback.after-records";
    public static final String DEFAULT_FALLBACK_AFTER_RECORDS = "fail";

    /**
     * How many attempts of each reduce task run on Camdoop: a retry (its first attempt's server died, or the torus
     * failed it mid-stream) roots a fresh Camdoop shuffle, up to this many attempts in all; later attempts run the
     * stock shuffle when {@link #FALLBACK_ENABLED}, so a torus that keeps failing costs attempts, never the job.
     */
    public static final String CAMDOOP_ATTEMPTS = "camdoop.fallback.camdoop-attempts";
    public static final int DEFAULT_CAMDOOP_ATTEMPTS = 2;

    /** Forces the stock shuffle for every reduce: a kill switch that needs no change to the configured classes. */
    public static final String FORCE_STOCK = "camdoop.shuffle.force-stock";
    public static final boolean DEFAULT_FORCE_STOCK = false;

    /** Local mode (LocalJobRunner): the embedded torus shape {@code AxBxC}; empty: sized to the maps, up to 3x3x3. */
    public static final String LOCAL_SHAPE = "camdoop.local.shape";
    public static final String DEFAULT_LOCAL_SHAPE = "";

    /** Milliseconds between polls of the map completion events. */
    public static final String EVENTS_POLL_MS = "camdoop.shuffle.events.poll-ms";
    public static final int DEFAULT_EVENTS_POLL_MS = 1000;

    /**
     * Milliseconds the reduce side waits for the next item of its stream before giving up on the torus (before the
     * first record: fallback; after: the attempt fails). Guards against a shuffle that never ends.
     */
    public static final String STALL_TIMEOUT_MS = "camdoop.shuffle.stall-timeout-ms";
    public static final int DEFAULT_STALL_TIMEOUT_MS = 600_000;

    /**
     * Whether the job's maps are deterministic: a re-run attempt of a map writes the same records as the attempt it
     * replaces. Then a shuffle that lost map outputs mid-stream resumes after the last key the reducer holds, with the
     * new attempts (paper section 4.2); otherwise only a shuffle that delivered nothing yet resumes (from the start),
     * and a later loss fails the attempt, whose retry shuffles from the start.
     */
    public static final String DETERMINISTIC_MAPS = "camdoop.shuffle.deterministic-maps";
    public static final boolean DEFAULT_DETERMINISTIC_MAPS = false;

    private CamdoopJobConfig() {}

    public static ShuffleMode mode(Configuration conf) {
        return ShuffleMode.parse(conf.getTrimmed(SHUFFLE_MODE, DEFAULT_SHUFFLE_MODE));
    }

    public static TreeChoice trees(Configuration conf) {
        return TreeChoice.parse(conf.getTrimmed(SHUFFLE_TREES, DEFAULT_SHUFFLE_TREES));
    }

    public static boolean fallbackEnabled(Configuration conf) {
        return conf.getBoolean(FALLBACK_ENABLED, DEFAULT_FALLBACK_ENABLED);
    }

    /**
     * The map output collector a job's maps use when it is not Camdoop's: Hadoop takes the first class of
     * {@code mapreduce.job.map.output.collector.class} that initialises (its own {@code MapTask$MapOutputBuffer} when
     * the key is unset), and only Camdoop's registers map outputs with the daemons. Empty when Camdoop's comes first.
     */
    public static Optional<String> foreignCollector(Configuration conf) {
        String[] classes = conf.getTrimmedStrings(MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR);
        String first = classes.length == 0 ? MapTask.MapOutputBuffer.class.getName()
                : classes[0];
        return first.equals(CamdoopMapOutputCollector.class.getName()) ? Optional.empty()
                : Optional.of(first);
    }

    /**
     * Why a job that encrypts its intermediate data runs on the stock shuffle: its map outputs are encrypted with a key
     * only the job's tasks hold, and giving it to every daemon on a tree's path is not worth the bytes saved.
     */
    public static final String ENCRYPTED_REASON = MRJobConfig.MR_ENCRYPTED_INTERMEDIATE_DATA
            + "=true: the daemons do not read encrypted map output (each would need the job's key)";

    /** Whether the job encrypts its map outputs ({@code mapreduce.job.encrypted-intermediate-data}), as Hadoop asks. */
    public static boolean encryptsIntermediateData(Configuration conf) {
        return org.apache.hadoop.mapreduce.CryptoUtils.isEncryptedSpillEnabled(conf);
    }

    /** @throws IllegalArgumentException for any value but {@code fail} (the only behaviour so far) */
    public static void checkAfterRecords(Configuration conf) {
        String v = conf.getTrimmed(FALLBACK_AFTER_RECORDS, DEFAULT_FALLBACK_AFTER_RECORDS);
        if (!"fail".equals(v)) {
            throw new IllegalArgumentException(FALLBACK_AFTER_RECORDS + " must be fail, got '" + v + "'");
        }
    }
}
