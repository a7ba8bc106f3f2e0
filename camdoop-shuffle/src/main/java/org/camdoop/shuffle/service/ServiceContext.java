package org.camdoop.shuffle.service;

import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import org.camdoop.shuffle.service.pacing.StreamPacer;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.transport.TorusNode;

/**
 * What a daemon's shuffle service runs on.
 *
 * @param node         this server's transport
 * @param catalog      the map outputs on this server
 * @param specs        how to merge each job's records
 * @param vertices     the threads vertices run on (a vertex uses one at a time)
 * @param initialView  failed and vacant servers known at start
 * @param pumpRecords  records a vertex merges before yielding its thread
 * @param rootCapacity chunks buffered between the root vertex and the reduce task
 * @param distribution the job specs and jars this daemon hands on to, and accepts from, other daemons
 * @param timer        runs the spec wait's timeouts (its tasks only hand work to {@code vertices})
 * @param specWaitMs   how long a START waits for the spec of a job this daemon does not know
 * @param pacer        paces the streams of non-root vertices ({@link StreamPacer#NONE} but in benchmarks)
 * @param limits       bounds on what peers can make the service hold
 */
public record ServiceContext(TorusNode node, MapOutputCatalog catalog, AggregationSpecs specs, Executor vertices,
        FailureView initialView, int pumpRecords, int rootCapacity, JobDistribution distribution,
        ScheduledExecutorService timer, long specWaitMs, StreamPacer pacer, ServiceLimits limits) {

    /** A context with the default limits. */
    public ServiceContext(TorusNode node, MapOutputCatalog catalog, AggregationSpecs specs, Executor vertices,
            FailureView initialView, int pumpRecords, int rootCapacity, JobDistribution distribution,
            ScheduledExecutorService timer, long specWaitMs, StreamPacer pacer) {
        this(node, catalog, specs, vertices, initialView, pumpRecords, rootCapacity, distribution, timer, specWaitMs,
                pacer, ServiceLimits.DEFAULT);
    }

    /** A context whose streams are not paced (the daemon's). */
    public ServiceContext(TorusNode node, MapOutputCatalog catalog, AggregationSpecs specs, Executor vertices,
            FailureView initialView, int pumpRecords, int rootCapacity, JobDistribution distribution,
            ScheduledExecutorService timer, long specWaitMs) {
        this(node, catalog, specs, vertices, initialView, pumpRecords, rootCapacity, distribution, timer, specWaitMs,
                StreamPacer.NONE);
    }
}
