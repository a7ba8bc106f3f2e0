package org.camdoop.shuffle.service;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.camdoop.shuffle.aggregation.JobAggregationSpec;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.service.plan.VertexPlan;
import org.camdoop.shuffle.service.vertex.Vertex;
import org.camdoop.shuffle.service.vertex.VertexOutput;
import org.camdoop.torus.transport.stream.InboundStream;
import org.camdoop.torus.transport.stream.OutboundStream;

/**
 * One shuffle's part on this daemon, wired and not yet started: every vertex with its input and output streams open,
 * the root (when this daemon is the root's) named as such. {@link VertexSetup} builds it whole or not at all; the
 * service registers it, then starts it. Immutable.
 *
 * @param spec     the shuffle
 * @param root     the root vertex, present only on the root's daemon
 * @param vertices every vertex hosted here, the root included
 * @param refusals outputs of vertices that cannot run here (the job is unknown): started by failing them
 * @param rebound  in a repair generation, on the daemon of a failed vertex's parent: its streams into that vertex
 *                 of the generation repaired, per vertex
 */
record ShuffleWiring(ShuffleSpec spec, Optional<Vertex> root, List<Wired> vertices, List<Refused> refusals,
        List<Rebound> rebound) {

    ShuffleWiring(ShuffleSpec spec, Optional<Vertex> root, List<Wired> vertices, List<Refused> refusals) {
        this(spec, root, vertices, refusals, List.of());
    }

    /** A vertex with its streams and the job's aggregation it runs. */
    record Wired(VertexPlan plan, Vertex vertex, JobAggregationSpec agg, List<InboundStream> inputs,
            Optional<OutboundStream> output) {
        Wired {
            inputs = List.copyOf(inputs);
        }
    }

    /** A repair's streams into {@code into}, a vertex of the generation it repairs, in place of its failed child's. */
    record Rebound(Vertex into, List<InboundStream> streams) {
        Rebound {
            streams = List.copyOf(streams);
        }
    }

    /** The output of a vertex that cannot run here: its start tells the parent why. */
    record Refused(OutboundStream stream, VertexOutput output, String reason) {
    }

    ShuffleWiring {
        vertices = List.copyOf(vertices);
        refusals = List.copyOf(refusals);
        rebound = List.copyOf(rebound);
    }

    /** This wiring with {@code streams} into vertices of the generation repaired. */
    ShuffleWiring withRebound(List<Rebound> streams) {
        return new ShuffleWiring(spec, root, vertices, refusals, streams);
    }

    /** How many vertices of the generation repaired this wiring's streams feed. */
    int reboundInto() {
        return rebound.size();
    }

    boolean isEmpty() {
        return vertices.isEmpty() && refusals.isEmpty() && rebound.isEmpty();
    }

    List<Vertex> allVertices() {
        return vertices.stream().map(Wired::vertex).toList();
    }

    List<InboundStream> inputs() {
        List<InboundStream> all = new ArrayList<>();
        rebound.forEach(r -> all.addAll(r.streams()));
        vertices.forEach(w -> all.addAll(w.inputs()));
        return all;
    }

    List<OutboundStream> outputs() {
        List<OutboundStream> all = new ArrayList<>();
        vertices.forEach(w -> w.output().ifPresent(all::add));
        refusals.forEach(r -> all.add(r.stream()));
        return all;
    }
}
