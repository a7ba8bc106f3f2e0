package org.camdoop.minicluster;

import org.camdoop.shuffle.protocol.AuxServiceName;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.camdoop.shuffle.daemon.CamdoopAuxService;
import org.camdoop.shuffle.hadoop.CamdoopMapOutputCollector;
import org.camdoop.shuffle.hadoop.CamdoopShuffle;

/**
 * The configuration that turns Camdoop on: the job-side plug-in settings and the NodeManager's aux-service keys. Every
 * key is its owner's constant (Hadoop's, or Camdoop's own); this class only puts them together.
 */
public final class PluginKeys {

    private PluginKeys() {
    }

    /** The job settings that send one job through Camdoop, in order: collector, shuffle consumer, providers. */
    public static Map<String, String> jobSettings() {
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put(MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR, CamdoopMapOutputCollector.class.getName());
        keys.put(MRConfig.SHUFFLE_CONSUMER_PLUGIN, CamdoopShuffle.class.getName());
        // Makes the MapReduce AM hand the job's shuffle secret to our aux service as well.
        keys.put(MRJobConfig.MAPREDUCE_JOB_SHUFFLE_PROVIDER_SERVICES, AuxServiceName.NAME);
        return keys;
    }

    /** {@link #jobSettings} as generic options for one examples program: {@code -Dkey=value} each. */
    public static List<String> jobOptions() {
        return jobSettings().entrySet().stream().map(e -> "-D" + e.getKey() + "=" + e.getValue()).toList();
    }

    /** The NodeManager key naming the aux service's class. */
    static String auxClassKey() {
        return String.format(YarnConfiguration.NM_AUX_SERVICE_FMT, AuxServiceName.NAME);
    }

    /** The NodeManager key naming a jar loaded in an isolated class loader (AuxServiceClassLoader) for this service. */
    static String auxClasspathKey() {
        return String.format(YarnConfiguration.NM_AUX_SERVICES_CLASSPATH, AuxServiceName.NAME);
    }
}
