package org.camdoop.shuffle.service;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.camdoop.shuffle.aggregation.JobAggregationSpec;
import org.camdoop.shuffle.aggregation.ReadaheadPool;
import org.camdoop.shuffle.protocol.ShuffleMode;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wires this daemon's vertices of a shuffle into one {@link ShuffleWiring} (every vertex, its output and input streams
 * open, nothing started) and later starts it on the local map outputs. Wiring is all or nothing: a failure part-way
 * closes whatever it had opened and throws. Stateless apart from its collaborators; called on the vertex executor.
 */
final class VertexSetup {
    private static final Logger LOG = LoggerFactory.getLogger(VertexSetup.class);

    /** Wiring failed; everything it had opened is closed and its vertices failed. */
    static final class WiringFailed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        WiringFailed(String message, RuntimeException cause) {
            super(message, cause);
        }
    }

    private final ServiceContext context;
    private final TorusNode node;
    private final TorusShape shape;
    /** Shared by all shuffles' demuxes on this daemon. */
    private final ReadaheadPool readahead;
    /**
     * Per vertex a tree repair may rebind, the stream each input takes now: where the merge's urgency goes once a
     * repair replaced one (forgotten when the vertex finishes).
     */
    private final Map<Vertex, AtomicReferenceArray<InboundStream>> rebindable = new ConcurrentHashMap<>();

    VertexSetup(ServiceContext context) {
        this.context = context;
        this.readahead = new ReadaheadPool(context.limits().readaheadBytes());
        this.node = context.node();
        this.shape = node.shape();
    }

    /**
     * Wires the vertices {@code plans} of {@code spec} on this daemon. Without the job's classes ({@code agg} empty) a
     * vertex cannot run: its output is opened so its start can tell the parent {@code unknownReason}.
     *
     * @param root the root vertex's output (towards the reducer's stream), present on the root's daemon
     * @throws WiringFailed naming the daemon and shuffle, if a stream cannot be opened (e.g. the buffer budget is
     *                      exhausted) or the plan gives this daemon a root it does not have
     */
    ShuffleWiring wire(ShuffleSpec spec, List<VertexPlan> plans, Optional<VertexOutput> root,
            Optional<JobAggregationSpec> agg, String unknownReason) {
        Optional<Vertex> rootVertex = Optional.empty();
        List<ShuffleWiring.Wired> wired = new ArrayList<>();
        List<ShuffleWiring.Refused> refused = new ArrayList<>();
        for (VertexPlan vp : plans) {
            try {
                if (agg.isEmpty()) {
                    refused.add(refuse(spec, vp, root, unknownReason));
                } else {
                    ShuffleWiring.Wired w = wireOne(spec, vp, root, agg.get());
                    wired.add(w);
                    if (vp.isRoot()) {
                        rootVertex = Optional.of(w.vertex());
                    }
                }
            } catch (RuntimeException e) {
                String why = "daemon " + node.coord() + " cannot set up " + spec.describe() + ": " + e.getMessage();
                close(new ShuffleWiring(spec, Optional.empty(), wired, refused), "aborted: " + why, e);
                root.ifPresent(s -> s.fail(why));
                throw new WiringFailed(why, e);
            }
        }
        return new ShuffleWiring(spec, rootVertex, wired, refused);
    }

    /**
     * Opens repair generation {@code repair}'s streams into {@code parent}, a vertex of the generation it repairs, each
     * at the input the replaced stream had (same tree, same child): all of them, or none and throws.
     */
    List<InboundStream> rebind(ShuffleSpec repair, List<StreamEdge> edges, Vertex parent, Consumer<String> failed) {
        List<StreamEdge> wired = parent.plan().inputs();
        List<InboundStream> opened = new ArrayList<>(edges.size());
        AtomicReferenceArray<InboundStream> current = rebindable.get(parent);
        try {
            for (StreamEdge e : edges) {
                int input = -1;
                for (int i = 0; i < wired.size(); i++) {
                    if (wired.get(i).tree() == e.tree() && wired.get(i).sendingVertex() == e.sendingVertex()) {
                        input = i;
                    }
                }
                if (input < 0 || !parent.rebindable()) {
                    throw new IllegalStateException("vertex " + parent.label() + " takes no stream from vertex "
                            + shape.coord(e.sendingVertex()) + " of tree " + e.tree() + " it could replace");
                }
                opened.add(node.openInbound(streamOf(repair, e), shape.coord(e.senderHost()),
                        new StreamInput(parent.rebound(repair.generation().number(), failed), input,
                                context.limits().maxRecordBytes())));
                if (current != null) {
                    // The merge waits for this input now (its tree stalled): serve the new stream first at once. The
                    // vertex takes the mark back when it moves on to wait for another input.
                    current.set(input, opened.get(opened.size() - 1));
                    opened.get(opened.size() - 1).markUrgent(true);
                }
            }
            return opened;
        } catch (RuntimeException e) {
            opened.forEach(node::closeInbound);
            throw new WiringFailed("daemon " + node.coord() + " cannot feed " + repair.describe() + " into "
                    + parent.label() + ": " + e.getMessage(), e);
        }
    }

    /** Starts a registered wiring: refused outputs fail, vertices read their local map outputs and run. */
    void start(ShuffleWiring wiring) {
        wiring.refusals().forEach(r -> r.output().fail(r.reason()));
        List<ShuffleWiring.Wired> reading = new ArrayList<>();
        for (ShuffleWiring.Wired w : wiring.vertices()) {
            if (w.plan().local().isPresent()) {
                reading.add(w);
            } else {
                LocalInputs none = LocalInputs.none();
                w.vertex().start(none.runs(), none.attempts());
            }
        }
        if (!reading.isEmpty()) {
            startReading(wiring.spec(), reading);
        }
    }

    /** Opens the local map outputs once for all the vertices that read them (one decode per output, shared). */
    private void startReading(ShuffleSpec spec, List<ShuffleWiring.Wired> reading) {
        List<LocalInputs.Reader> readers = new ArrayList<>(reading.size());
        for (ShuffleWiring.Wired w : reading) {
            Vertex v = w.vertex();
            // A repaired tree's vertex skips what its tree had passed whole to the root vertex.
            Optional<byte[]> treeResume = spec.generation().repair().flatMap(r -> r.resumeKey(w.plan().tree()));
            readers.add(new LocalInputs.Reader(w.plan().local().get(), v::onLocalData, treeResume));
        }
        List<LocalInputs> inputs;
        try {
            // Every vertex of one shuffle on a daemon carries the same job spec.
            inputs = LocalInputs.openShared(reading.get(0).agg(), context.catalog().outputsOf(spec.jobId()),
                    spec.expectedAttempts(), spec.partition(), readers, readahead, spec.generation().resumeAfter());
        } catch (IOException | RuntimeException e) {
            // Logged here as well as reported: a refused file (MapOutputRefusedException) is an operator's concern.
            LOG.warn("{} partition {}: cannot read local map outputs on {}: {}", spec.jobId(), spec.partition(),
                    node.coord(), e.getMessage());
            reading.forEach(w -> w.vertex().fail("cannot read local map outputs on " + node.coord() + ": "
                    + e.getMessage()));
            return;
        }
        for (int i = 0; i < reading.size(); i++) {
            reading.get(i).vertex().start(inputs.get(i).runs(), inputs.get(i).attempts());
        }
    }

    /** Fails the vertices of a wiring and gives back its streams' buffers. */
    void close(ShuffleWiring wiring, String reason, Exception cause) {
        wiring.allVertices().forEach(v -> v.fail(reason));
        wiring.inputs().forEach(node::closeInbound);
        wiring.outputs().forEach(o -> o.close(cause));
    }

    private VertexOutput outputOf(ShuffleSpec spec, VertexPlan vp, Optional<VertexOutput> root,
            List<OutboundStream> opened) {
        if (vp.isRoot()) {
            // Absent when our failure view gives us the root while the root's daemon thinks otherwise.
            return root.orElseThrow(() -> new IllegalStateException("root vertex of " + spec.describe()
                    + " planned on " + node.coord()));
        }
        OutboundStream stream = node.openOutbound(streamOf(spec, vp.output().get()),
                shape.coord(vp.output().get().receiverHost()));
        opened.add(stream);
        return context.pacer().pace(vp.output().get(), new StreamOutput(stream, node.config().segmentBytes()));
    }

    private ShuffleWiring.Refused refuse(ShuffleSpec spec, VertexPlan vp, Optional<VertexOutput> root,
            String unknownReason) {
        if (vp.isRoot()) {
            throw new IllegalStateException(unknownReason);
        }
        List<OutboundStream> opened = new ArrayList<>(1);
        VertexOutput out = outputOf(spec, vp, root, opened);
        return new ShuffleWiring.Refused(opened.get(0), out, unknownReason);
    }

    private ShuffleWiring.Wired wireOne(ShuffleSpec spec, VertexPlan vp, Optional<VertexOutput> root,
            JobAggregationSpec agg) {
        List<OutboundStream> opened = new ArrayList<>(1);
        List<InboundStream> inputs = new ArrayList<>();
        AtomicReferenceArray<InboundStream> current = new AtomicReferenceArray<>(vp.inputs().size());
        Vertex vertex = null;
        try {
            VertexOutput out = outputOf(spec, vp, root, opened);
            // A vertex with children in a tree takes whole key groups from each, so that a tree repair can replace one
            // at an exact key (the root's are not: a neighbour's failure restarts the whole shuffle).
            int rebindHeld = !vp.isRoot() && !vp.inputs().isEmpty() && spec.mode() != ShuffleMode.DIRECT
                    ? TreeRepairs.MAX_HELD_GROUP_BYTES : 0;
            VertexContext ctx = new VertexContext(spec, vp, agg, out, (child, urgent) -> {
                InboundStream now = current.get(child);
                if (now != null) {
                    now.markUrgent(urgent);
                }
            }, context.vertices(), context.pumpRecords(), System::nanoTime, rebindHeld);
            vertex = new Vertex(ctx, shape.coord(vp.vertex()).toString());
            for (int i = 0; i < vp.inputs().size(); i++) {
                StreamEdge e = vp.inputs().get(i);
                inputs.add(node.openInbound(streamOf(spec, e), shape.coord(e.senderHost()),
                        new StreamInput(vertex, i, context.limits().maxRecordBytes())));
                current.set(i, inputs.get(i));
            }
            if (rebindHeld > 0) {
                Vertex v = vertex;
                rebindable.put(v, current);
                v.finished().whenComplete((state, error) -> rebindable.remove(v));
            }
            return new ShuffleWiring.Wired(vp, vertex, agg, inputs, opened.stream().findFirst());
        } catch (RuntimeException e) {
            if (vertex != null) {
                vertex.fail("daemon " + node.coord() + " cannot set up " + spec.describe() + ": " + e.getMessage());
            }
            inputs.forEach(node::closeInbound);
            opened.forEach(o -> o.close(e));
            throw e;
        }
    }

    static StreamId streamOf(ShuffleSpec spec, StreamEdge e) {
        return new StreamId(spec.streamKey(), spec.partition(), e.tree(), e.sendingVertex());
    }
}
