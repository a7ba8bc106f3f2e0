package org.camdoop.minicluster;

/**
 * The configuration that turns Camdoop on: the job-side plug-in keys and the NodeManager's aux service. Class names
 * are strings because the plug-ins may not be on this JVM's class path.
 */
public final class PluginKeys {

    static final String COLLECTOR_KEY = "mapreduce.job.map.output.collector.class";
    static final String COLLECTOR = "org.camdoop.shuffle.hadoop.CamdoopMapOutputCollector";
    static final String SHUFFLE_KEY = "mapreduce.job.reduce.shuffle.consumer.plugin.class";
    static final String SHUFFLE = "org.camdoop.shuffle.hadoop.CamdoopShuffle";
    /** Makes the MapReduce AM hand the job's shuffle secret to our aux service as well. */
    static final String PROVIDERS_KEY = "mapreduce.job.shuffle.provider.services";

    static final String AUX_SERVICES_KEY = "yarn.nodemanager.aux-services";
    static final String AUX_SERVICE = "camdoop_shuffle";
    static final String AUX_CLASS_KEY = "yarn.nodemanager.aux-services." + AUX_SERVICE + ".class";
    /** A jar loaded in an isolated class loader (Hadoop's AuxServiceClassLoader) for this one service. */
    static final String AUX_CLASSPATH_KEY = "yarn.nodemanager.aux-services." + AUX_SERVICE + ".classpath";
    static final String AUX_CLASS = "org.camdoop.shuffle.daemon.CamdoopAuxService";

    static final String TOPOLOGY_FILE_KEY = "camdoop.topology.file";
    static final String SECRET_KEY = "camdoop.cluster.secret";
    static final String COORDINATE_KEY = "camdoop.daemon.coordinate";
    /**
     * A directory shared by the NodeManagers of one host where each aux service claims a free coordinate of this host.
     * Needed because MiniYARN gives every NodeManager the same configuration (no per-NM {@code COORDINATE_KEY});
     * the claiming itself is the aux service's (plug-in) side.
     */
    static final String CLAIM_DIR_KEY = "camdoop.daemon.claim.dir";

    /** Daemons accept the job token of a job's first (loopback) registration; see docs/security.md. */
    static final String TRUST_ON_FIRST_USE_KEY = org.camdoop.shuffle.jobs.JobsConfig.JOB_TOKEN_TRUST_ON_FIRST_USE;

    private PluginKeys() {
    }

    /** The job settings that send one job through Camdoop, in order: collector, shuffle consumer, providers. */
    public static java.util.Map<String, String> jobSettings() {
        java.util.Map<String, String> keys = new java.util.LinkedHashMap<>();
        keys.put(COLLECTOR_KEY, COLLECTOR);
        keys.put(SHUFFLE_KEY, SHUFFLE);
        keys.put(PROVIDERS_KEY, AUX_SERVICE);
        return keys;
    }

    /** {@link #jobSettings} as generic options for one examples program: {@code -Dkey=value} each. */
    public static java.util.List<String> jobOptions() {
        return jobSettings().entrySet().stream().map(e -> "-D" + e.getKey() + "=" + e.getValue()).toList();
    }
}
