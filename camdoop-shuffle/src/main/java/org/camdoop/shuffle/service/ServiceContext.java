package org.camdoop.shuffle.service;

import java.util.concurrent.Executor;
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
 * @param pacer        paces the streams of non-root vertices ({@link StreamPacer#NONE} but in benchmarks)
 */
public record ServiceContext(TorusNode node, MapOutputCatalog catalog, AggregationSpecs specs, Executor vertices,
        FailureView initialView, int pumpRecords, int rootCapacity, StreamPacer pacer) {

    /** A context whose streams are not paced (the daemon's). */
    public ServiceContext(TorusNode node, MapOutputCatalog catalog, AggregationSpecs specs, Executor vertices,
            FailureView initialView, int pumpRecords, int rootCapacity) {
        this(node, catalog, specs, vertices, initialView, pumpRecords, rootCapacity, StreamPacer.NONE);
    }
}
