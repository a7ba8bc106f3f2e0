package org.camdoop.minicluster;

import org.apache.hadoop.conf.Configuration;
import org.camdoop.shuffle.daemon.CamdoopShuffleHandler;

/**
 * A configuration whose {@code yarn.nodemanager.aux-services.mapreduce_shuffle.class} is always
 * {@link CamdoopShuffleHandler}: MiniMRYarnCluster's {@code serviceInit} sets it to Hadoop's ShuffleHandler just before
 * it creates the NodeManagers from the same configuration object, so setting it beforehand is not enough. Everything
 * else is an ordinary configuration.
 */
final class ShuffleHandlerPinnedConfiguration extends Configuration {

    ShuffleHandlerPinnedConfiguration(Configuration other) {
        super(other);
        set(PluginKeys.auxClassKey(), CamdoopShuffleHandler.class.getName());
    }

    @Override
    public void set(String name, String value) {
        set(name, value, null);
    }

    @Override
    public void set(String name, String value, String source) {
        super.set(name, PluginKeys.auxClassKey().equals(name) ? CamdoopShuffleHandler.class.getName() : value, source);
    }
}
