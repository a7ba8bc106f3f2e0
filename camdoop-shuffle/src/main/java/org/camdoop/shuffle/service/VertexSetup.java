package org.camdoop.shuffle.service;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.camdoop.shuffle.aggregation.JobAggregationSpec;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.service.net.StreamInput;
import org.camdoop.shuffle.service.net.StreamOutput;
import org.camdoop.shuffle.service.plan.StreamEdge;
import org.camdoop.shuffle.service.plan.VertexPlan;
import org.camdoop.shuffle.service.vertex.LocalInputs;
import org.camdoop.shuffle.service.vertex.Vertex;
import org.camdoop.shuffle.service.vertex.VertexContext;
import org.camdoop.shuffle.service.vertex.VertexOutput;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.TorusNode;
import org.camdoop.torus.transport.stream.InboundStream;
import org.camdoop.torus.transport.stream.OutboundStream;
import org.camdoop.torus.transport.wire.StreamId;

/**
 * Builds the vertices of a shuffle on this daemon: opens each one's output and input streams, registers them with
 * the shuffle's {@link RunningShuffle}, and starts it on its local map outputs. A failure part-way closes whatever it
 * had opened. Stateless apart from its collaborators; called on the vertex executor.
 */
final class VertexSetup {

    private final ServiceContext context;
    private final TorusNode node;
    private final TorusShape shape;

    VertexSetup(ServiceContext context) {
        this.context = context;
        this.node = context.node();
        this.shape = node.shape();
    }

    /**
     * Builds one vertex of this daemon: its output, its input streams; queues its start. On failure it closes what it
     * opened and fails the vertex, then rethrows.
     *
     * @return the vertex's output stream, if it has one (the root's output is the reducer's)
     * @throws RuntimeException if a stream cannot be opened (e.g. the buffer budget is exhausted)
     */
    Optional<OutboundStream> setUp(ShuffleSpec spec, VertexPlan vp, Optional<RootStream> root,
            Optional<JobAggregationSpec> agg, RunningShuffle r, List<Runnable> toStart, String unknownReason) {
        if (vp.isRoot() && root.isEmpty()) {
            // Our failure view gives us the root while the root's daemon thinks otherwise.
            throw new IllegalStateException("root vertex of " + spec.describe() + " planned on " + node.coord());
        }
        if (vp.isRoot() && agg.isEmpty()) {
            throw new IllegalStateException(unknownReason);
        }
        List<InboundStream> inputs = new ArrayList<>();
        OutboundStream stream = null;
        Vertex vertex = null;
        try {
            VertexOutput out;
            if (vp.isRoot()) {
                out = root.get();
            } else {
                stream = node.openOutbound(streamOf(spec, vp.output().get()),
                        shape.coord(vp.output().get().receiverHost()));
                out = context.pacer().pace(vp.output().get(),
                        new StreamOutput(stream, node.config().segmentBytes()));
            }
            if (agg.isEmpty()) {
                // Without the job's classes nothing can be merged: say so upstream, so the root fails fast and clearly.
                out.fail(unknownReason);
                r.add(null, List.of(), List.of(stream));
                return Optional.of(stream);
            }
            VertexContext ctx = new VertexContext(spec, vp, agg.get(), out,
                    (child, urgent) -> inputs.get(child).markUrgent(urgent), context.vertices(), context.pumpRecords());
            vertex = new Vertex(ctx, shape.coord(vp.vertex()).toString());
            for (int i = 0; i < vp.inputs().size(); i++) {
                StreamEdge e = vp.inputs().get(i);
                inputs.add(node.openInbound(streamOf(spec, e), shape.coord(e.senderHost()),
                        new StreamInput(vertex, i)));
            }
            if (!r.add(vertex, inputs, stream == null ? List.of() : List.of(stream))) {
                throw new IllegalStateException("the shuffle was aborted");
            }
        } catch (RuntimeException e) {
            if (vertex != null) {
                vertex.fail("daemon " + node.coord() + " cannot set up " + spec.describe() + ": " + e.getMessage());
            }
            inputs.forEach(node::closeInbound);
            if (stream != null) {
                stream.close(e);
            }
            throw e;
        }
        Vertex started = vertex;
        toStart.add(() -> start(started, spec, vp, agg.get()));
        return Optional.ofNullable(stream);
    }

    private void start(Vertex vertex, ShuffleSpec spec, VertexPlan vp, JobAggregationSpec agg) {
        try {
            LocalInputs local = vp.local().isPresent()
                    ? LocalInputs.open(agg, context.catalog().outputsOf(spec.jobId()), spec.expectedAttempts(),
                            spec.partition(), vp.local().get())
                    : LocalInputs.none();
            vertex.start(local.runs(), local.attempts());
        } catch (IOException | RuntimeException e) {
            vertex.fail("cannot read local map outputs on " + node.coord() + ": " + e.getMessage());
        }
    }

    static StreamId streamOf(ShuffleSpec spec, StreamEdge e) {
        return new StreamId(spec.streamKey(), spec.partition(), e.tree(), e.sendingVertex());
    }
}
