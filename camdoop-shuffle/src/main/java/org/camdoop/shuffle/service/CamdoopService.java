package org.camdoop.shuffle.service;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.camdoop.shuffle.aggregation.JobAggregationSpec;
import org.camdoop.shuffle.service.net.ShuffleMessages;
import org.camdoop.shuffle.service.net.SpecMessages;
import org.camdoop.shuffle.service.net.StreamInput;
import org.camdoop.shuffle.service.net.StreamOutput;
import org.camdoop.shuffle.service.plan.ShufflePlan;
import org.camdoop.shuffle.service.plan.StreamEdge;
import org.camdoop.shuffle.service.plan.VertexPlan;
import org.camdoop.shuffle.service.vertex.LocalInputs;
import org.camdoop.shuffle.service.vertex.Vertex;
import org.camdoop.shuffle.service.vertex.VertexContext;
import org.camdoop.shuffle.service.vertex.VertexOutput;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.TorusNode;
import org.camdoop.torus.transport.TransportListener;
import org.camdoop.torus.transport.stream.InboundStream;
import org.camdoop.torus.transport.wire.StreamId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Camdoop service on one daemon. The reduce task's daemon calls {@link #startShuffle}: it tells every other live
 * daemon (a START service message) and runs its own part; every daemon derives from the spec alone which vertices it
 * hosts, opens their streams, and starts them on its local map outputs. Vertices run on the context's executor; this
 * class only sets them up and tears them down.
 *
 * <p>Before START, the root broadcasts the job's spec and jars along a spanning tree ({@link SpecBroadcast}), so
 * daemons that ran no task of the job learn it. START goes straight to each daemon and may overtake the spec: a daemon
 * that does not know the job yet parks the START ({@link ParkedStarts}) until the spec is registered, refused, or
 * {@link ServiceContext#specWaitMs()} runs out, and then runs or fails its vertices.
 *
 * <p>Thread-safety: {@code running} is a concurrent map; {@code view} is replaced whole (volatile). Service messages
 * arrive on the transport's event loop and are handed to the vertex executor at once.
 */
public final class CamdoopService {

    private static final Logger LOG = LoggerFactory.getLogger(CamdoopService.class);
    /** Service messages travel as "tree" 255 of the job's partition: no data stream uses it. */
    private static final int CONTROL_TREE = 255;

    private record ShuffleKey(long streamKey, int partition) {
    }

    /** The vertices of one shuffle on this daemon, and the streams they receive on; the lists are guarded by the record. */
    private record Running(List<Vertex> vertices, List<InboundStream> inputs) {
    }

    private final ServiceContext context;
    private final TorusNode node;
    private final TorusShape shape;
    private final Map<ShuffleKey, Running> running = new ConcurrentHashMap<>();
    private final SpecBroadcast broadcast;
    private final ParkedStarts parked;
    private volatile FailureView view;

    public CamdoopService(ServiceContext context) {
        this.context = context;
        this.node = context.node();
        this.shape = node.shape();
        this.view = context.initialView();
        this.parked = new ParkedStarts(context.timer(), context.specWaitMs(), (spec, waitMs) ->
                context.vertices().execute(() -> runLocal(new ShufflePlan(spec, view), Optional.empty(),
                        "daemon " + node.coord() + " did not receive the spec of " + spec.jobId() + " within "
                                + waitMs + " ms")));
        this.broadcast = new SpecBroadcast(node, () -> view, context.distribution(), context.specWaitMs(),
                new SpecBroadcast.Listener() {
                    @Override
                    public void known(String jobId) {
                        for (ShuffleSpec spec : parked.release(jobId)) {
                            runLocal(new ShufflePlan(spec, view), Optional.empty(), unknownJob(spec));
                        }
                    }

                    @Override
                    public void refused(String jobId, String reason) {
                        for (ShuffleSpec spec : parked.release(jobId)) {
                            runLocal(new ShufflePlan(spec, view), Optional.empty(),
                                    "daemon " + node.coord() + " refused the spec of " + jobId + ": " + reason);
                        }
                    }
                });
        node.setServiceHandler(this::onMessage);
        node.addListener(new TransportListener() {
            @Override
            public void serverFailed(Coord server) {
                view = view.withFailed(server);
                node.setFailureView(view);
            }
        });
    }

    /** Failed and vacant servers as this daemon knows them. */
    public FailureView view() {
        return view;
    }

    /** This daemon's part of the job spec broadcast. */
    public SpecBroadcast specBroadcast() {
        return broadcast;
    }

    /** START messages waiting here for the spec of their job. */
    public int parkedStarts() {
        return parked.size();
    }

    /** The job ended or expired on this daemon: forget its broadcast state. */
    public void forgetJob(String jobId) {
        broadcast.forget(jobId);
    }

    /** Shuffles with vertices still running here. */
    public int runningShuffles() {
        return running.size();
    }

    /**
     * Starts a shuffle whose root is this server: tells every other live daemon and runs the local vertices.
     *
     * @return the merged stream for the reduce task
     * @throws IllegalArgumentException if the spec's root is not this server
     */
    public RootStream startShuffle(ShuffleSpec spec) {
        if (!spec.root().equals(node.coord())) {
            throw new IllegalArgumentException("shuffle " + spec.describe() + " must start on its root, not on "
                    + node.coord());
        }
        FailureView current = view;
        ShufflePlan plan = new ShufflePlan(spec, current);
        // Spec first: on each tree path it is queued ahead of START. START may still overtake it on another path;
        // receivers park it (ParkedStarts).
        broadcast.distribute(spec.jobId(), current);
        byte[] start = ShuffleMessages.start(spec);
        StreamId control = new StreamId(spec.streamKey(), spec.partition(), CONTROL_TREE, node.index());
        for (int s = 0; s < shape.size(); s++) {
            if (s != node.index() && view.isLive(s)) {
                node.sendService(shape.coord(s), control, Unpooled.wrappedBuffer(start));
            }
        }
        RootStream root = new RootStream(context.rootCapacity());
        LOG.info("starting shuffle {}", spec.describe());
        runLocal(plan, Optional.of(root), unknownJob(spec));
        return root;
    }

    /** Stops this daemon's vertices of a shuffle (and tells the others when {@code broadcast}). */
    public void abort(ShuffleSpec spec, String reason, boolean broadcast) {
        abort(spec.streamKey(), spec.partition(), reason, broadcast);
    }

    private void abort(long streamKey, int partition, String reason, boolean broadcast) {
        parked.cancel(streamKey, partition);
        Running r = running.remove(new ShuffleKey(streamKey, partition));
        if (r != null) {
            r.vertices().forEach(v -> v.fail("aborted: " + reason));
        }
        if (broadcast) {
            StreamId control = new StreamId(streamKey, partition, CONTROL_TREE, node.index());
            byte[] abort = ShuffleMessages.abort(streamKey, partition, reason);
            for (int s = 0; s < shape.size(); s++) {
                if (s != node.index() && view.isLive(s)) {
                    node.sendService(shape.coord(s), control, Unpooled.wrappedBuffer(abort));
                }
            }
        }
    }

    private void onMessage(Coord from, StreamId id, ByteBuf payload) {
        byte[] bytes;
        try {
            bytes = ByteBufUtil.getBytes(payload);
        } finally {
            payload.release();
        }
        context.vertices().execute(() -> {
            ShuffleMessages.Message m;
            try {
                m = ShuffleMessages.decode(bytes);
            } catch (IllegalArgumentException e) {
                LOG.warn("bad service message from {}: {}", from, e.getMessage());
                return;
            }
            if (m instanceof ShuffleMessages.Start s) {
                onStart(s.spec());
            } else if (m instanceof SpecMessages.Spec spec) {
                broadcast.onSpec(spec, bytes);
            } else if (m instanceof SpecMessages.JarPart part) {
                broadcast.onJarPart(part, bytes);
            } else if (m instanceof ShuffleMessages.Abort a) {
                abort(a.streamKey(), a.partition(), a.reason() + " (from " + from + ")", false);
            }
        });
    }

    private void onStart(ShuffleSpec spec) {
        ParkedStarts.Parking p = parked.park(spec, () -> knows(spec.jobId()));
        switch (p) {
            case KNOWN_NOW -> runLocal(new ShufflePlan(spec, view), Optional.empty(), unknownJob(spec));
            case PARKED -> LOG.debug("shuffle {} waits for the spec of {}", spec.describe(), spec.jobId());
            case FULL -> runLocal(new ShufflePlan(spec, view), Optional.empty(), "daemon " + node.coord()
                    + " does not know job " + spec.jobId() + " and already holds " + ParkedStarts.MAX_PARKED
                    + " starts waiting for their spec");
        }
    }

    private boolean knows(String jobId) {
        return context.specs().forJob(jobId).isPresent();
    }

    private String unknownJob(ShuffleSpec spec) {
        Optional<String> refusal = broadcast.refusal(spec.jobId());
        return refusal.isPresent()
                ? "daemon " + node.coord() + " refused the spec of " + spec.jobId() + ": " + refusal.get()
                : "daemon " + node.coord() + " does not know job " + spec.jobId();
    }

    /** Runs this daemon's vertices of a shuffle; if the job is unknown they fail with {@code unknownReason}. */
    private void runLocal(ShufflePlan plan, Optional<RootStream> root, String unknownReason) {
        ShuffleSpec spec = plan.spec();
        List<VertexPlan> mine = plan.forServer(node.index());
        if (mine.isEmpty()) {
            return;
        }
        Optional<JobAggregationSpec> agg = context.specs().forJob(spec.jobId())
                .map(a -> spec.mode().combines() ? a : a.withoutCombiner())
                .map(a -> a.withBufferSizes(StreamOutput.chunkBytesFor(node.config().segmentBytes()),
                        a.combineBatchBytes()));
        ShuffleKey key = new ShuffleKey(spec.streamKey(), spec.partition());
        Running r = new Running(new ArrayList<>(), new ArrayList<>());
        if (running.putIfAbsent(key, r) != null) {
            LOG.warn("shuffle {} is already running here; duplicate start ignored", spec.describe());
            return;
        }
        List<Runnable> toStart = new ArrayList<>();
        for (VertexPlan vp : mine) {
            try {
                setUp(spec, vp, root, agg, r, toStart, unknownReason);
            } catch (RuntimeException e) {
                // E.g. the buffer budget cannot hold more streams: fail this vertex's part loudly rather than hang.
                String why = "daemon " + node.coord() + " cannot set up " + spec.describe() + ": " + e.getMessage();
                LOG.warn(why);
                if (vp.isRoot()) {
                    root.get().fail(why);
                } else {
                    abort(spec.streamKey(), spec.partition(), why, true);
                }
            }
        }
        // Started only once all are registered, so a fast vertex cannot finish the shuffle's bookkeeping early.
        List<Vertex> registered;
        synchronized (r) {
            registered = List.copyOf(r.vertices());
        }
        if (registered.isEmpty()) {
            running.remove(key, r);
        }
        for (Vertex v : registered) {
            v.finished().whenComplete((state, error) -> forget(key, r, v));
        }
        if (root.isPresent() && !registered.isEmpty()) {
            // The root failing fails the whole shuffle: tell every daemon to stop, so nothing lingers for the retry.
            registered.get(0).finished().thenAccept(state -> {
                if (state == org.camdoop.shuffle.service.vertex.VertexState.FAILED) {
                    abort(spec.streamKey(), spec.partition(), "the root failed", true);
                }
            });
        }
        toStart.forEach(Runnable::run);
    }

    /**
     * Builds one vertex of this daemon: its output, its input streams; queues its start.
     *
     * @throws RuntimeException if a stream cannot be opened (e.g. the buffer budget is exhausted)
     */
    private void setUp(ShuffleSpec spec, VertexPlan vp, Optional<RootStream> root, Optional<JobAggregationSpec> agg,
            Running r, List<Runnable> toStart, String unknownReason) {
        VertexOutput out = vp.isRoot() ? root.orElseThrow(
                () -> new IllegalStateException("root vertex of " + spec.describe() + " planned on " + node.coord()))
                : context.pacer().pace(vp.output().get(), new StreamOutput(node.openOutbound(
                        streamOf(spec, vp.output().get()), shape.coord(vp.output().get().receiverHost())),
                        node.config().segmentBytes()));
        if (agg.isEmpty()) {
            // Without the job's classes nothing can be merged: say so upstream, so the root fails fast and clearly.
            out.fail(unknownReason);
            return;
        }
        List<InboundStream> inputs = new ArrayList<>();
        VertexContext ctx = new VertexContext(spec, vp, agg.get(), out,
                (child, urgent) -> inputs.get(child).markUrgent(urgent), context.vertices(), context.pumpRecords());
        Vertex vertex = new Vertex(ctx, shape.coord(vp.vertex()).toString());
        for (int i = 0; i < vp.inputs().size(); i++) {
            StreamEdge e = vp.inputs().get(i);
            inputs.add(node.openInbound(streamOf(spec, e), shape.coord(e.senderHost()), new StreamInput(vertex, i)));
        }
        synchronized (r) {
            r.vertices().add(vertex);
            r.inputs().addAll(inputs);
        }
        toStart.add(() -> start(vertex, spec, vp, agg.get()));
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

    private void forget(ShuffleKey key, Running r, Vertex finished) {
        synchronized (r) {
            r.vertices().remove(finished);
            if (r.vertices().isEmpty()) {
                running.remove(key, r);
            }
        }
    }

    private static StreamId streamOf(ShuffleSpec spec, StreamEdge e) {
        return new StreamId(spec.streamKey(), spec.partition(), e.tree(), e.sendingVertex());
    }
}
