package org.camdoop.minicluster;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.mapred.ShuffleHandler;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.camdoop.shuffle.hadoop.CamdoopMapOutputCollector;
import org.camdoop.shuffle.hadoop.CamdoopShuffle;

/**
 * The configuration that turns Camdoop on: the job-side plug-in settings and the NodeManager's keys for
 * {@code mapreduce_shuffle} (served by {@code CamdoopShuffleHandler}). Every key is its owner's constant (Hadoop's, or
 * Camdoop's own); this class only puts them together.
 */
public final class PluginKeys {

    private PluginKeys() {
    }

    /** The job settings that send one job through Camdoop, in order: collector, shuffle consumer. */
    public static Map<String, String> jobSettings() {
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put(MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR, CamdoopMapOutputCollector.class.getName());
        keys.put(MRConfig.SHUFFLE_CONSUMER_PLUGIN, CamdoopShuffle.class.getName());
        return keys;
    }

    /** {@link #jobSettings} as generic options for one examples program: {@code -Dkey=value} each. */
    public static List<String> jobOptions() {
        return jobSettings().entrySet().stream().map(e -> "-D" + e.getKey() + "=" + e.getValue()).toList();
    }

    /** The NodeManager key naming the class of {@code mapreduce_shuffle}. */
    static String auxClassKey() {
        return String.format(YarnConfiguration.NM_AUX_SERVICE_FMT, ShuffleHandler.MAPREDUCE_SHUFFLE_SERVICEID);
    }

    /** The NodeManager key naming a jar loaded in an isolated class loader for {@code mapreduce_shuffle}. */
    static String auxClasspathKey() {
        return String.format(YarnConfiguration.NM_AUX_SERVICES_CLASSPATH, ShuffleHandler.MAPREDUCE_SHUFFLE_SERVICEID);
    }
}
