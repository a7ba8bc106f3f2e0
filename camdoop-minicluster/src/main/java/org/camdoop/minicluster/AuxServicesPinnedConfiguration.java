package org.camdoop.minicluster;

import org.camdoop.shuffle.protocol.AuxServiceName;
import java.util.Arrays;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.camdoop.shuffle.daemon.CamdoopAuxService;

/**
 * A configuration whose {@code yarn.nodemanager.aux-services} always includes {@code camdoop_shuffle}.
 * MiniMRYarnCluster's {@code serviceInit} overwrites that key with {@code mapreduce_shuffle} just before it creates the
 * NodeManagers from the same configuration object, so setting it beforehand is not enough.
 */
final class AuxServicesPinnedConfiguration extends Configuration {

    AuxServicesPinnedConfiguration(Configuration other) {
        super(other);
        set(YarnConfiguration.NM_AUX_SERVICES, get(YarnConfiguration.NM_AUX_SERVICES, ""));
    }

    @Override
    public void set(String name, String value) {
        set(name, value, null);
    }

    @Override
    public void set(String name, String value, String source) {
        super.set(name, YarnConfiguration.NM_AUX_SERVICES.equals(name) ? withCamdoop(value) : value, source);
    }

    private static String withCamdoop(String services) {
        return Stream.concat(Arrays.stream(services == null ? new String[0] : services.split(",")).map(String::trim)
                        .filter(s -> !s.isEmpty() && !s.equals(AuxServiceName.NAME)), Stream.of(AuxServiceName.NAME))
                .collect(Collectors.joining(","));
    }
}
