package org.camdoop.shuffle.service;

import io.netty.buffer.Unpooled;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.camdoop.shuffle.protocol.TreeRepair;
import org.camdoop.shuffle.service.net.CutMessages;
import org.camdoop.shuffle.service.net.CutMessages.CutDone;
import org.camdoop.shuffle.service.net.CutMessages.Outcome;
import org.camdoop.shuffle.service.net.MembershipMessages.ServerRun;
import org.camdoop.shuffle.service.plan.StreamEdge;
import org.camdoop.shuffle.service.vertex.InputCut;
import org.camdoop.shuffle.service.vertex.Vertex;
import org.camdoop.shuffle.service.vertex.VertexState;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.TorusNode;
import org.camdoop.torus.transport.wire.StreamId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The parent's side of a tree repair (docs/recovery.md, "Tree repair"): a shuffle's root asks this daemon (CUT) to cut
 * the input of one of its vertices that comes from a failed vertex; the vertex stops taking that stream and says, on
 * its own thread, the last key it took whole from it, which this daemon sends back (CUT_DONE). From then on the vertex
 * waits at that input for the repair generation's stream, which resumes after that key; if the repair never comes, the
 * whole restart that replaces it aborts the vertex's generation. Should neither come (the root's next START lost for
 * longer than it is sent again, or a CUT forged by a peer holding the cluster secret), the vertex fails after
 * {@link #repairWaitMs} (the spec wait and 12 s), and its failure reaches the root through its stream: a visible
 * failure, not a stall. Called on the vertex threads.
 */
final class ParentCuts {

    private static final Logger LOG = LoggerFactory.getLogger(ParentCuts.class);

    private final ServiceContext context;
    private final TorusNode node;
    private final TorusShape shape;
    private final RunningShuffles running;
    private final RecentShuffles recent;
    /** Takes the failure the root names as news, as a START's failed servers are. */
    private final Consumer<ServerRun> failed;
    /**
     * How long a cut vertex waits for its repair. The root sends its START once every cut is answered (within
     * {@link TreeRepairs#CUT_WAIT_MS} of this one) and again until acknowledged; it gives the repair up at the first
     * resend tick past the spec wait (at most {@link StartAcks#MAX_RETRY_MS} later) and restarts whole, which aborts
     * this vertex. Failing it sooner would fail the reduce attempt where that restart would have recovered.
     */
    private final long repairWaitMs;

    ParentCuts(ServiceContext context, RunningShuffles running, RecentShuffles recent, Consumer<ServerRun> failed) {
        this.context = context;
        this.node = context.node();
        this.shape = node.shape();
        this.running = running;
        this.recent = recent;
        this.failed = failed;
        this.repairWaitMs = context.specWaitMs() + StartAcks.MAX_RETRY_MS + 2 * TreeRepairs.CUT_WAIT_MS;
    }

    /** A CUT from {@code from}: cut, and answer it. */
    void onCut(Coord from, CutMessages.Cut c) {
        RunningShuffle r = running.get(new ShuffleKey(c.streamKey(), c.partition()));
        if (r != null && !from.equals(r.spec().root())) {
            // A consistency check, as for START (docs/security.md): only a shuffle's root cuts its vertices.
            LOG.warn("CUT of {} from {}, not its root {}; ignored", r.spec().describe(), from, r.spec().root());
            return;
        }
        if (r != null) {
            failed.accept(new ServerRun(c.failed(), c.failedRun()));
        }
        Consumer<CutDone> reply = done -> node.sendService(from,
                new StreamId(c.streamKey(), c.partition(), ControlTrees.CONTROL, node.index()),
                Unpooled.wrappedBuffer(CutMessages.cutDone(done)));
        String refusal = cut(r, c, reply);
        if (refusal != null && recent.wasDone(new ShuffleKey(c.streamKey(), c.partition()), c.tree(), c.parent())) {
            // Finished here (perhaps just now): every input of it had ended, the failed vertex's too.
            reply.accept(done(c, Outcome.ENDED, Optional.empty()));
        } else if (refusal != null) {
            LOG.info("cannot cut tree {} of shuffle stream {} partition {} for {}: {}", c.tree(), c.streamKey(),
                    c.partition(), from, refusal);
            reply.accept(refused(c, refusal));
        }
    }

    /** Asks the vertex to cut; returns why it cannot, or null (it answers on its own thread). */
    private String cut(RunningShuffle r, CutMessages.Cut c, Consumer<CutDone> reply) {
        if (r == null) {
            return "the generation does not run here";
        }
        if (c.binding() != r.spec().generation().number() + 1) {
            return "generation " + r.spec().generation().number() + " is repaired by generation "
                    + (r.spec().generation().number() + 1) + ", not " + c.binding();
        }
        Optional<Vertex> parent = r.vertices().stream().filter(v -> !v.plan().isRoot()
                && v.plan().tree() == c.tree() && v.plan().vertex() == c.parent()).findFirst();
        if (parent.isEmpty()) {
            return "vertex " + shape.coord(c.parent()) + " of tree " + c.tree() + " does not run here";
        }
        Vertex v = parent.get();
        List<StreamEdge> inputs = v.plan().inputs();
        int input = -1;
        for (int i = 0; i < inputs.size(); i++) {
            if (inputs.get(i).sendingVertex() == c.failed()) {
                input = i;
            }
        }
        if (input < 0 || !v.rebindable()) {
            return "vertex " + v.label() + " takes no stream from vertex " + shape.coord(c.failed())
                    + " that a repair could replace";
        }
        v.cut(new int[] {input}, c.binding(), points -> reply.accept(answer(c, v, points)));
        ShuffleKey key = new ShuffleKey(c.streamKey(), c.partition());
        context.timer().schedule(() -> context.vertices().execute(() -> {
            if (recent.repairOf(key).isEmpty() && running.get(key) == r) {
                LOG.warn("vertex {} was cut for repair generation {} of its shuffle, which did not come within {} ms;"
                        + " it fails", v.label(), c.binding(), repairWaitMs);
                v.fail("cut at its input from vertex " + shape.coord(c.failed()) + " for a repair that did not come"
                        + " within " + repairWaitMs + " ms");
            }
        }), repairWaitMs, java.util.concurrent.TimeUnit.MILLISECONDS);
        return null;
    }

    private CutDone answer(CutMessages.Cut c, Vertex v, List<InputCut> points) {
        if (points.isEmpty()) {
            // Done: every input had ended, that one too. Failed: its failure reaches the root on its own.
            return v.state() == VertexState.DONE ? done(c, Outcome.ENDED, Optional.empty())
                    : refused(c, "vertex " + v.label() + " failed");
        }
        InputCut at = points.get(0);
        if (at.ended()) {
            return done(c, Outcome.ENDED, Optional.empty());
        }
        if (!at.exact()) {
            return done(c, Outcome.INEXACT, Optional.empty());
        }
        if (at.lastKey().map(k -> k.length > TreeRepair.MAX_KEY_BYTES).orElse(false)) {
            return refused(c, "its last key is longer than " + TreeRepair.MAX_KEY_BYTES + " bytes");
        }
        return done(c, Outcome.TAKEN, at.lastKey());
    }

    private static CutDone done(CutMessages.Cut c, Outcome outcome, Optional<byte[]> key) {
        return new CutDone(c.streamKey(), c.partition(), c.tree(), outcome, key, "");
    }

    private CutDone refused(CutMessages.Cut c, String why) {
        return new CutDone(c.streamKey(), c.partition(), c.tree(), Outcome.REFUSED, Optional.empty(),
                "daemon " + node.coord() + ": " + why);
    }
}
