package org.camdoop.shuffle.service;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.camdoop.shuffle.aggregation.JobAggregationSpec;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.service.net.ShuffleMessages;
import org.camdoop.shuffle.service.net.SpecMessages;
import org.camdoop.shuffle.service.net.StartProof;
import org.camdoop.shuffle.service.net.StreamOutput;
import org.camdoop.shuffle.service.plan.ShufflePlan;
import org.camdoop.shuffle.service.plan.VertexPlan;
import org.camdoop.shuffle.service.vertex.Vertex;
import org.camdoop.shuffle.service.vertex.VertexState;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.TorusNode;
import org.camdoop.torus.transport.TransportListener;
import org.camdoop.torus.transport.stream.OutboundStream;
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
 * <p>Thread-safety: {@code running} is thread-safe ({@link RunningShuffles}); {@code view} is replaced whole (volatile). Service messages
 * arrive on the transport's event loop and are handed to the vertex executor at once.
 */
public final class CamdoopService {

    private static final Logger LOG = LoggerFactory.getLogger(CamdoopService.class);

    /** Aborted shuffles, STARTs taken and roots' proofs, remembered for a while. */
    private final RecentShuffles recent = new RecentShuffles();
    /** Whether a START from a peer may run here (set by the daemon: job token checks). */
    private volatile StartProof.Check startCheck = StartProof.Check.ACCEPT_ALL;

    private final ServiceContext context;
    private final TorusNode node;
    private final TorusShape shape;
    private final RunningShuffles running = new RunningShuffles();
    private final SpecBroadcast broadcast;
    private final ParkedStarts parked;
    private final StartAcks startAcks;
    private final VertexSetup vertexSetup;
    private volatile FailureView view;
    /** Service messages handed to the vertex threads and not yet handled; bounded by the context's limits. */
    private final java.util.concurrent.atomic.AtomicInteger pendingMessages = new java.util.concurrent.atomic.AtomicInteger();
    private final java.util.concurrent.atomic.AtomicLong droppedMessages = new java.util.concurrent.atomic.AtomicLong();
    private final DaemonCounters counters = new DaemonCounters();

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
        this.vertexSetup = new VertexSetup(context);
        this.startAcks = new StartAcks(context.timer(), context.vertices(), context.specWaitMs(), System::nanoTime,
                (spec, server) -> sendStart(spec, server),
                (spec, silent) -> {
                    List<Coord> who = silent.stream().map(shape::coord).toList();
                    abort(spec, "daemons " + who + " did not answer the start of " + spec.describe() + " within "
                            + context.specWaitMs() + " ms", true);
                });
        node.setServiceHandler(this::onMessage);
        node.addListener(new TransportListener() {
            @Override
            public void serverFailed(Coord server) {
                counters.failureDeclared();
                view = view.withFailed(server);
                node.setFailureView(view);
                // Every server hosts vertices of every shuffle: the running ones have lost a vertex (and its map
                // outputs). Recovery from the last key (paper section 4.2) is not built yet, so they fail now rather
                // than wait for streams that will never end; the reduce attempts retry.
                for (ShuffleKey key : running.keys()) {
                    abort(key.streamKey(), key.partition(), "server " + server + " failed", true);
                }
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

    /** Completes once no START waits here for its spec (at once if none does): released, cancelled or timed out. */
    public CompletableFuture<Void> whenNoParkedStarts() {
        return parked.whenEmpty();
    }

    /** The job ended or expired on this daemon: forget its broadcast state. */
    public void forgetJob(String jobId) {
        broadcast.forget(jobId);
    }

    /** Running totals since the daemon started (for metrics). */
    public DaemonCounters counters() {
        return counters;
    }

    /** Shuffles with vertices still running here. */
    public int runningShuffles() {
        return running.size();
    }

    /** The shuffles running here, at most {@code max} of them, by job and partition. */
    public List<ShuffleStatus> shuffles(int max) {
        return running.statuses(max);
    }

    /**
     * Completes once no shuffle runs here (at once if none does): every vertex finished and every output stream was
     * acknowledged or closed. For callers that wait for a daemon to settle (tests, an orderly stop).
     */
    public CompletableFuture<Void> whenIdle() {
        return running.whenIdle();
    }

    /**
     * Starts a shuffle whose root is this server: tells every other live daemon and runs the local vertices.
     *
     * @return the merged stream for the reduce task
     * @throws IllegalArgumentException if the spec's root is not this server
     */
    public RootStream startShuffle(ShuffleSpec spec) {
        return startShuffle(spec, StartProof.NONE);
    }

    /** Sets the check every START from a peer passes before it runs here (job token proofs). */
    public void checkStartsWith(StartProof.Check check) {
        this.startCheck = check;
    }

    /**
     * Starts a shuffle whose root is this server, forwarding {@code proof} (what the reduce task proved to this
     * daemon) in every START, so daemons that hold the job's token can check it.
     *
     * @return the merged stream for the reduce task
     * @throws IllegalArgumentException if the spec's root is not this server
     */
    public RootStream startShuffle(ShuffleSpec spec, StartProof proof) {
        recent.proved(new ShuffleKey(spec.streamKey(), spec.partition()), proof);
        if (!spec.root().equals(node.coord())) {
            throw new IllegalArgumentException("shuffle " + spec.describe() + " must start on its root, not on "
                    + node.coord());
        }
        FailureView current = view;
        ShufflePlan plan = new ShufflePlan(spec, current);
        // Spec first: on each tree path it is queued ahead of START. START may still overtake it on another path;
        // receivers park it (ParkedStarts).
        broadcast.distribute(spec.jobId(), current);
        java.util.Set<Integer> peers = new java.util.TreeSet<>();
        for (int s = 0; s < shape.size(); s++) {
            if (s != node.index() && view.isLive(s)) {
                peers.add(s);
                sendStart(spec, s);
            }
        }
        // Service messages are best effort: START goes again to whoever has not acknowledged it.
        startAcks.expect(spec, peers);
        RootStream root = new RootStream(context.rootCapacity());
        LOG.info("starting shuffle {}", spec.describe());
        counters.rootStarted();
        runLocal(plan, Optional.of(root), unknownJob(spec));
        return root;
    }

    /** Stops this daemon's vertices of a shuffle (and tells the others when {@code broadcast}). */
    public void abort(ShuffleSpec spec, String reason, boolean broadcast) {
        abort(spec.streamKey(), spec.partition(), reason, broadcast);
    }

    private void abort(long streamKey, int partition, String reason, boolean broadcast) {
        ShuffleKey key = new ShuffleKey(streamKey, partition);
        recent.aborted(key);
        startAcks.forget(streamKey, partition);
        parked.cancel(streamKey, partition);
        RunningShuffle r = running.remove(key);
        if (r != null) {
            counters.aborted();
            stop(r.abort(), "aborted: " + reason);
        }
        if (broadcast) {
            StreamId control = new StreamId(streamKey, partition, ControlTrees.CONTROL, node.index());
            byte[] abort = ShuffleMessages.abort(streamKey, partition, reason);
            for (int s = 0; s < shape.size(); s++) {
                if (s != node.index() && view.isLive(s)) {
                    node.sendService(shape.coord(s), control, Unpooled.wrappedBuffer(abort));
                }
            }
        }
    }

    private void sendStart(ShuffleSpec spec, int server) {
        StreamId control = new StreamId(spec.streamKey(), spec.partition(), ControlTrees.CONTROL, node.index());
        StartProof proof = recent.proofOf(new ShuffleKey(spec.streamKey(), spec.partition()));
        node.sendService(shape.coord(server), control, Unpooled.wrappedBuffer(ShuffleMessages.start(spec, proof)));
    }

    /** Fails the vertices and gives back the buffers of streams whose other end may never finish them. */
    private void stop(RunningShuffle.Stopped s, String reason) {
        s.vertices().forEach(v -> v.fail(reason));
        s.inputs().forEach(node::closeInbound);
        IllegalStateException cause = new IllegalStateException(reason);
        s.outputs().forEach(o -> o.close(cause));
    }

    private void onMessage(Coord from, StreamId id, ByteBuf payload) {
        if (pendingMessages.get() >= context.limits().maxPendingMessages()) {
            // Dropped before any acknowledgement: a START lost here is sent again by its root.
            payload.release();
            if (Long.bitCount(droppedMessages.incrementAndGet()) == 1) {
                LOG.warn("service message {} from {} dropped: {} messages already wait for the vertex threads "
                        + "(camdoop.daemon.service.pending.max); {} dropped so far", id, from,
                        context.limits().maxPendingMessages(), droppedMessages.get());
            }
            return;
        }
        byte[] bytes;
        try {
            bytes = ByteBufUtil.getBytes(payload);
        } finally {
            payload.release();
        }
        if (bytes.length > 0 && bytes[0] == ShuffleMessages.START && id.tree() == ControlTrees.CONTROL) {
            // Acknowledged here on the event loop, every time (duplicates included): the root re-sends START until it
            // hears back, and a busy vertex executor must not delay the answer into a flood of re-sends.
            node.sendService(from, id, Unpooled.wrappedBuffer(ShuffleMessages.startAck(id.job(), id.partition())));
            if (recent.startTaken(new ShuffleKey(id.job(), id.partition()))) {
                return; // a START sent again after a lost ACK: already taken, nothing to queue
            }
        }
        pendingMessages.incrementAndGet();
        context.vertices().execute(() -> {
            try {
                handle(from, bytes);
            } catch (RuntimeException e) {
                LOG.error("service message from {} failed; dropped", from, e);
            } finally {
                pendingMessages.decrementAndGet();
            }
        });
    }

    private void handle(Coord from, byte[] bytes) {
        ShuffleMessages.Message m;
        try {
            m = ShuffleMessages.decode(bytes);
        } catch (IllegalArgumentException e) {
            LOG.warn("bad service message from {}: {}", from, e.getMessage());
            return;
        }
        if (m instanceof ShuffleMessages.Start s && !shape.contains(s.spec().root())) {
            LOG.warn("START of {} from {} names root {}, outside the torus {}; ignored", s.spec().describe(), from,
                    s.spec().root(), shape);
        } else if (m instanceof ShuffleMessages.Start s) {
            String refusal = startCheck.refusal(s.spec(), s.proof());
            if (refusal != null) {
                // Refused shuffles fail everywhere at once rather than wait for this daemon's streams.
                LOG.warn("START of {} from {} refused: {}", s.spec().describe(), from, refusal);
                counters.startRefused();
                abort(s.spec().streamKey(), s.spec().partition(), "daemon " + node.coord() + " refused its start: "
                        + refusal, true);
                return;
            }
            counters.peerStartReceived();
            onStart(s.spec());
        } else if (m instanceof ShuffleMessages.StartAck ack) {
            startAcks.acknowledged(ack.streamKey(), ack.partition(), shape.index(from));
        } else if (m instanceof SpecMessages.Spec spec) {
            broadcast.onSpec(spec, bytes);
        } else if (m instanceof SpecMessages.JarPart part) {
            broadcast.onJarPart(part, bytes);
        } else if (m instanceof ShuffleMessages.Abort a) {
            abort(a.streamKey(), a.partition(), a.reason() + " (from " + from + ")", false);
        }
    }

    private void onStart(ShuffleSpec spec) {
        ShuffleKey key = new ShuffleKey(spec.streamKey(), spec.partition());
        if (!recent.takeStart(key)) {
            return;
        }
        if (recent.wasAborted(key)) {
            return; // its ABORT overtook it: neither run nor park it
        }
        ParkedStarts.Parking p = parked.park(spec, () -> knows(spec.jobId()));
        switch (p) {
            case KNOWN_NOW -> runLocal(new ShufflePlan(spec, view), Optional.empty(), unknownJob(spec));
            case PARKED -> {
                // An ABORT that slipped in between the check above and the parking must still un-park it.
                if (recent.wasAborted(key)) {
                    parked.cancel(spec.streamKey(), spec.partition());
                } else {
                    LOG.debug("shuffle {} waits for the spec of {}", spec.describe(), spec.jobId());
                }
            }
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
        if (recent.wasAborted(key)) {
            // Its ABORT overtook this START (they run on different threads): nothing to do.
            root.ifPresent(s -> s.fail("shuffle " + spec.describe() + " was aborted"));
            return;
        }
        RunningShuffle r = new RunningShuffle(spec);
        if (!running.add(key, r)) {
            LOG.warn("shuffle {} is already running here; duplicate start ignored", spec.describe());
            root.ifPresent(s -> s.fail("shuffle " + spec.describe() + " is already running on " + node.coord()));
            return;
        }
        ShuffleWiring wiring;
        try {
            wiring = vertexSetup.wire(spec, mine, root, agg, unknownReason);
        } catch (VertexSetup.WiringFailed e) {
            // E.g. the buffer budget cannot hold more streams: fail this daemon's part loudly rather than hang.
            LOG.warn(e.getMessage());
            // Everyone else would wait for streams this daemon will never open or end.
            abort(spec.streamKey(), spec.partition(), e.getMessage(), true);
            return;
        }
        if (!r.attach(wiring)) {
            vertexSetup.close(wiring, "shuffle " + spec.describe() + " was aborted",
                    new IllegalStateException("the shuffle was aborted"));
            root.ifPresent(s -> s.fail("shuffle " + spec.describe() + " was aborted"));
            return;
        }
        if (wiring.isEmpty()) {
            running.remove(key, r);
        }
        // Hooks first, start last: a fast vertex cannot finish the shuffle's bookkeeping before all are registered.
        for (Vertex v : wiring.allVertices()) {
            v.finished().whenComplete((state, error) -> {
                counters.combined(v.recordsCombinedHere());
                counters.waitedForCredit(v.creditWaitedNanos());
                forget(key, r, v);
            });
        }
        for (OutboundStream o : wiring.outputs()) {
            o.completion().whenComplete((v, error) -> {
                if (r.forget(o)) {
                    running.remove(key, r);
                }
            });
        }
        // The root failing fails the whole shuffle: tell every daemon to stop, so nothing lingers for the retry.
        wiring.root().ifPresent(rootVertex -> rootVertex.finished().thenAccept(state -> {
            if (state == VertexState.FAILED) {
                abort(spec.streamKey(), spec.partition(), "the root failed", true);
            }
        }));
        vertexSetup.start(wiring);
    }

    private void forget(ShuffleKey key, RunningShuffle r, Vertex finished) {
        if (r.forget(finished)) {
            running.remove(key, r);
        }
    }
}
