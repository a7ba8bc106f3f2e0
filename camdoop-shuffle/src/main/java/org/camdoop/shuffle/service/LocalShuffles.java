package org.camdoop.shuffle.service;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.camdoop.shuffle.aggregation.JobAggregationSpec;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.service.net.StreamOutput;
import org.camdoop.shuffle.service.plan.RepairScope;
import org.camdoop.shuffle.service.plan.ShufflePlan;
import org.camdoop.shuffle.service.plan.StreamEdge;
import org.camdoop.shuffle.service.plan.VertexPlan;
import org.camdoop.shuffle.service.vertex.Vertex;
import org.camdoop.shuffle.service.vertex.VertexOutput;
import org.camdoop.shuffle.service.vertex.VertexState;
import org.camdoop.torus.transport.TorusNode;
import org.camdoop.torus.transport.stream.InboundStream;
import org.camdoop.torus.transport.stream.OutboundStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This daemon's part of each shuffle generation: plans it ({@link ShufflePlan} on the generation's failure view),
 * wires it whole ({@link VertexSetup}), registers it in {@link RunningShuffles}, starts it, forgets each vertex and
 * output as it finishes, and stops it all on an abort. Called on the vertex threads.
 */
final class LocalShuffles {

    private static final Logger LOG = LoggerFactory.getLogger(LocalShuffles.class);
    /** How long the parents of a repair that failed here wait for the root's restart before they fail (failLater). */
    static final long REPAIR_FAILED_GRACE_MS = 10_000;

    private final ServiceContext context;
    private final TorusNode node;
    private final DaemonView views;
    private final RecentShuffles recent;
    private final RunningShuffles running;
    private final DaemonCounters counters;
    private final VertexSetup vertexSetup;
    private final LocalRepairs repairs;
    /** Aborts a shuffle everywhere, with the reason. */
    private final BiConsumer<ShuffleSpec, String> aborter;
    /** A generation's root vertex finished (done or failed). */
    private final Consumer<ShuffleSpec> rootFinished;
    /** A generation's root vertex failed: the shuffle stops everywhere, with any repair generation beside it. */
    private final BiConsumer<ShuffleSpec, String> rootFailed;
    /** A repair generation cannot run its part on the root: the shuffle restarts whole. */
    private final BiConsumer<ShuffleSpec, String> repairFailed;

    LocalShuffles(ServiceContext context, DaemonView views, RecentShuffles recent, RunningShuffles running,
            DaemonCounters counters, BiConsumer<ShuffleSpec, String> aborter, Consumer<ShuffleSpec> rootFinished,
            BiConsumer<ShuffleSpec, String> rootFailed, BiConsumer<ShuffleSpec, String> repairFailed) {
        this.context = context;
        this.node = context.node();
        this.views = views;
        this.recent = recent;
        this.running = running;
        this.counters = counters;
        this.vertexSetup = new VertexSetup(context);
        this.repairs = new LocalRepairs(node, recent, running, this::stop);
        this.aborter = aborter;
        this.rootFinished = rootFinished;
        this.rootFailed = rootFailed;
        this.repairFailed = repairFailed;
    }

    /** Runs this daemon's vertices of a shuffle; if the job is unknown they fail with {@code unknownReason}. */
    void run(ShuffleSpec spec, Optional<VertexOutput> root, String unknownReason) {
        ShufflePlan plan = new ShufflePlan(spec, views.planView(spec));
        List<VertexPlan> mine = new ArrayList<>(plan.forServer(node.index()));
        ShuffleKey key = new ShuffleKey(spec.streamKey(), spec.partition());
        // A generation repaired before its START came here runs only what the repair keeps.
        Optional<ShuffleSpec> repairedBy = recent.repairOf(key);
        repairedBy.flatMap(r -> RepairScope.of(r, node.shape()))
                .ifPresent(s -> mine.removeIf(vp -> s.rebuilds(vp.tree(), vp.vertex())));
        // A repair generation's streams out of its subtrees feed the failed vertices' parents, where they run.
        List<Vertex> rebind = spec.generation().repair().isPresent() ? repairs.apply(spec) : List.of();
        if (mine.isEmpty() && rebind.isEmpty()) {
            return;
        }
        // What cannot run fails the reducer's stream; a repair that cannot feed a parent stops, and the shuffle
        // restarts whole (its root learns of it from the abort, or here).
        boolean rebinding = !rebind.isEmpty();
        Consumer<String> rootFails = why -> {
            if (rebinding) {
                aborter.accept(spec, why);
                repairFailed.accept(spec, why);
                failLater(rebind, why);
            } else {
                root.ifPresent(s -> s.fail(why));
            }
        };
        Optional<JobAggregationSpec> agg = context.specs().forJob(spec.jobId())
                .map(a -> spec.mode().combines() ? a : a.withoutCombiner())
                .map(a -> a.withBufferSizes(StreamOutput.chunkBytesFor(node.config().segmentBytes()),
                        a.combineBatchBytes()));
        if (recent.wasAborted(key)) {
            // Its ABORT overtook this START (they run on different threads): nothing to do but tell the reducer why.
            rootFails.accept(abortedBecause(spec, key));
            return;
        }
        RunningShuffle r = new RunningShuffle(spec);
        if (!running.add(key, r)) {
            LOG.warn("shuffle {} is already running here; duplicate start ignored", spec.describe());
            rootFails.accept("shuffle " + spec.describe() + " is already running on " + node.coord());
            return;
        }
        ShuffleWiring wiring;
        try {
            wiring = vertexSetup.wire(spec, mine, root, agg, unknownReason);
            if (rebinding) {
                wiring = rebound(spec, plan, wiring, rebind, rootFails);
            }
        } catch (VertexSetup.WiringFailed e) {
            // E.g. the buffer budget cannot hold more streams: fail this daemon's part loudly rather than hang.
            LOG.warn(e.getMessage());
            // Everyone else would wait for streams this daemon will never open or end.
            if (rebinding) {
                rootFails.accept(e.getMessage()); // aborts it everywhere too
            } else {
                aborter.accept(spec, e.getMessage());
            }
            return;
        }
        if (!r.attach(wiring)) {
            String why = abortedBecause(spec, key);
            vertexSetup.close(wiring, why, new IllegalStateException(why));
            rootFails.accept(why);
            return;
        }
        if (wiring.isEmpty()) {
            running.remove(key, r);
        }
        // After attach: the entry is released once the vertices the rebound streams feed finished; if one failed, its
        // streams' senders may never end them, so they are closed (ended ones finish by themselves).
        for (ShuffleWiring.Rebound into : wiring.rebound()) {
            into.into().finished().whenComplete((state, error) -> {
                if (state != VertexState.DONE) {
                    into.streams().forEach(node::closeInbound);
                }
                if (r.reboundFinished()) {
                    running.remove(key, r);
                }
            });
        }
        // Hooks first, start last: a fast vertex cannot finish the shuffle's bookkeeping before all are registered.
        for (Vertex v : wiring.allVertices()) {
            v.finished().whenComplete((state, error) -> {
                if (state == VertexState.DONE) {
                    recent.vertexDone(key, v.plan().tree(), v.plan().vertex()); // before it is forgotten
                }
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
                rootFailed.accept(spec, "the root failed"); // and a repair running beside it
            }
            rootFinished.accept(spec);
        }));
        // A repair of this generation taken on another vertex thread while it was being wired here may have found
        // nothing attached to stop: its trees would run on, waiting for parents that closed their streams, and the
        // failed server's leaf streams in the others would never end. Attached now, they are stopped before they start
        // (a repair recorded from here on finds them attached and stops them itself).
        Optional<ShuffleSpec> repair = repairedBy.or(() -> recent.repairOf(key));
        if (repairedBy.isEmpty()) {
            repair.ifPresent(late -> repairs.stopSubtrees(r, late));
        }
        vertexSetup.start(wiring);
        repair.ifPresent(done -> repairs.endVanished(r, done));
    }

    /**
     * {@code wiring} with repair generation {@code spec}'s streams into {@code parents} (vertices of the generation it
     * repairs), or none and throws.
     */
    private ShuffleWiring rebound(ShuffleSpec spec, ShufflePlan plan, ShuffleWiring wiring, List<Vertex> parents,
            Consumer<String> failed) {
        List<ShuffleWiring.Rebound> rebound = new ArrayList<>(parents.size());
        try {
            for (Vertex parent : parents) {
                List<StreamEdge> edges = plan.repairedInputs().stream()
                        .filter(e -> e.tree() == parent.plan().tree() && e.receiverHost() == node.index()).toList();
                rebound.add(new ShuffleWiring.Rebound(parent, vertexSetup.rebind(spec, edges, parent,
                        why -> context.vertices().execute(() -> failed.accept(why)))));
            }
            return wiring.withRebound(rebound);
        } catch (VertexSetup.WiringFailed e) {
            rebound.forEach(into -> into.streams().forEach(node::closeInbound));
            vertexSetup.close(wiring, "aborted: " + e.getMessage(), e);
            throw e;
        }
    }

    /**
     * The repair feeding {@code parents} failed here and its abort went to every daemon; should the root not hear it
     * (service messages are best effort), its restart would never come and the parents would wait for good. So they
     * fail once the root had time to restart (which aborts them first): their failure reaches the root through their
     * streams and fails the reduce attempt. An abort reaches the root in milliseconds; one later than
     * {@link #REPAIR_FAILED_GRACE_MS} is taken as lost.
     */
    private void failLater(List<Vertex> parents, String why) {
        context.timer().schedule(() -> context.vertices().execute(() -> parents.forEach(p -> p.fail(
                "its repair failed, and no restart came within " + REPAIR_FAILED_GRACE_MS + " ms: " + why))),
                REPAIR_FAILED_GRACE_MS, java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    /** What the reducer of a shuffle aborted before it ran here learns: the abort's own reason when remembered. */
    private String abortedBecause(ShuffleSpec spec, ShuffleKey key) {
        return "shuffle " + spec.describe() + " was aborted" + recent.abortReason(key).map(r -> ": " + r).orElse("");
    }

    private void forget(ShuffleKey key, RunningShuffle r, Vertex finished) {
        if (r.forget(finished)) {
            running.remove(key, r);
        }
    }

    /** Fails the vertices and gives back the buffers of streams whose other end may never finish them. */
    void stop(RunningShuffle.Stopped s, String reason) {
        s.vertices().forEach(v -> v.fail(reason));
        s.inputs().forEach(node::closeInbound);
        IllegalStateException cause = new IllegalStateException(reason);
        s.outputs().forEach(o -> o.close(cause));
    }
}
