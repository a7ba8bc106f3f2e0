package org.camdoop.shuffle.protocol;

/**
 * The name the daemon runs under inside a NodeManager, in {@code yarn.nodemanager.aux-services} and
 * {@code mapreduce.job.shuffle.provider.services}: the auxiliary service registers under it and the map side checks a
 * job lists it. Stateless.
 */
public final class AuxServiceName {
    public static final String NAME = "camdoop_shuffle";

    private AuxServiceName() {}
}
