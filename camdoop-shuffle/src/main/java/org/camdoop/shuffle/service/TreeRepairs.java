package org.camdoop.shuffle.service;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Function;
import io.netty.buffer.Unpooled;
import org.camdoop.shuffle.protocol.ShuffleGeneration;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.protocol.TreeRepair;
import org.camdoop.shuffle.service.net.CutMessages;
import org.camdoop.shuffle.service.plan.ShufflePlan;
import org.camdoop.shuffle.service.plan.StreamEdge;
import org.camdoop.shuffle.service.plan.VertexPlan;
import org.camdoop.shuffle.service.vertex.Vertex;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.wire.StreamId;
import org.camdoop.torus.trees.SpanningTrees;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The root's side of a tree repair (paper section 4.2, docs/recovery.md "Tree repair"): when a server that held no map
 * output of a shuffle fails, its vertex moves to its parent's server and only its subtree is rebuilt, in each tree
 * where it had children, from just after the last key that parent took whole from it; every other vertex runs on, and
 * the failed server's leaf vertices, which had nothing to send but their end, count as ended. Everything else (a
 * second failure in a generation, a server that held outputs, a neighbour of the root, a tree left out of the
 * generation, a key group too large to hold back, a cut refused or unanswered) takes the whole restart, as before.
 *
 * <p>Steps: {@link #tryRepair} (under the shuffle's monitor) asks the daemon of the failed vertex's parent in each of
 * those trees to cut that parent's input from it (CUT, {@link ParentCuts} there); each answers where its input stood
 * (CUT_DONE, {@link #cutAnswered}), and once all have, {@link #cutDone} (under the monitor again) starts the repair
 * generation. A failure that comes meanwhile takes the whole restart, which aborts the generation the cuts were for;
 * answers then find the shuffle moved on and are dropped.
 */
final class TreeRepairs {

    private static final Logger LOG = LoggerFactory.getLogger(TreeRepairs.class);
    /**
     * The largest key group a vertex holds back whole per child (WholeGroupInput), so that a tree repair resumes the
     * failed child's subtree exactly; a larger one in the way makes the repair a restart of the whole shuffle. Held per
     * input of every vertex with children but the root, beside the transport's buffer budget: a daemon hosts one vertex
     * per tree with at most five children each (30 inputs, 7.5 MB at worst per shuffle), more when it adopts the
     * vertices of failed servers.
     */
    static final int MAX_HELD_GROUP_BYTES = 256 << 10;
    /**
     * How long the root waits for the cuts' answers, sending the unanswered ones again after {@link #CUT_RESEND_MS},
     * then twice as long each time (service messages are best effort: a link cut may lose one). A live daemon answers
     * within milliseconds; after this the whole restart the repair would have saved takes over.
     */
    static final long CUT_WAIT_MS = 2000;
    static final long CUT_RESEND_MS = 100;

    private final ServiceContext context;
    private final TorusShape shape;
    private final DaemonView views;
    private final RootedShuffles rooted;
    private final DaemonCounters counters;
    /** Proves, announces and launches a repair generation (START to every live daemon, this one's part). */
    private final BiConsumer<RootedShuffles.Rooted, ShuffleSpec> launch;
    private final Function<ShuffleSpec, Optional<Vertex>> rootVertex;
    /** Restarts the whole shuffle after the last key the reducer holds (or fails it), with the cause. */
    private final BiConsumer<RootedShuffles.Rooted, String> restartWhole;
    /** Stops a generation here and on every daemon, with the reason. */
    private final BiConsumer<ShuffleSpec, String> abort;

    TreeRepairs(ServiceContext context, DaemonView views, RootedShuffles rooted, DaemonCounters counters,
            BiConsumer<RootedShuffles.Rooted, ShuffleSpec> launch, Function<ShuffleSpec, Optional<Vertex>> rootVertex,
            BiConsumer<RootedShuffles.Rooted, String> restartWhole, BiConsumer<ShuffleSpec, String> abort) {
        this.context = context;
        this.shape = context.node().shape();
        this.views = views;
        this.rooted = rooted;
        this.counters = counters;
        this.launch = launch;
        this.rootVertex = rootVertex;
        this.restartWhole = restartWhole;
        this.abort = abort;
    }

    /**
     * Run {@code incarnation} of server {@code failed}, which lost {@code lost} of the shuffle's map outputs, ended:
     * starts repairing the subtrees it ran if it can (the caller holds {@code r}'s monitor).
     *
     * @return whether the repair took the failure on; false leaves it to the whole restart
     */
    boolean tryRepair(RootedShuffles.Rooted r, int failed, long incarnation, SortedSet<String> lost) {
        ShuffleSpec base = r.spec;
        int root = shape.index(base.root());
        if (r.repair != null || r.cuts != null || r.waiting() || !(r.output instanceof GenerationOutput)
                || base.mode() == ShuffleMode.DIRECT || base.generation().repair().isPresent() || failed == root
                || !lost.isEmpty() || !r.locations.reportedBy(failed, incarnation)) {
            return false; // one repair per generation, for a server known to hold none of the shuffle's map outputs
        }
        Optional<Vertex> vertex = rootVertex.apply(base);
        if (vertex.isEmpty()) {
            return false;
        }
        SpanningTrees trees = base.trees().build(shape, root);
        List<StreamEdge> edges = vertex.get().plan().inputs();
        if (edges.stream().anyMatch(e -> e.senderHost() == failed)) {
            // A neighbour of the root: its vertex's subtree is its whole tree, whose stripe would enter the root over
            // the other trees' links, unevenly, where the whole restart stripes the keys over the trees left
            // (ShufflePlan). Measured on 2026-11-27 at S=1, 50 Mbit/s: repaired 1.36-1.39 / 1.23 / 1.15 at 0.25 / 0.5
            // / 0.75 T, restarted 1.20-1.23 / 1.15-1.16 / 1.08-1.14.
            return false;
        }
        if (edges.stream().mapToInt(StreamEdge::tree).distinct().count() != trees.count()
                || edges.size() != trees.count()
                || base.generation().number() + 2 >= ShuffleGeneration.MAX_GENERATIONS) {
            // A tree left out (a vacant neighbour of the root): the stripes are fewer than the trees, and a repair
            // plans on all of them. Or more than one stream per tree. Or no generation left for the restart a second
            // failure would need.
            return false;
        }
        // The failed server's own vertex in each tree where it had children (a vertex it adopted for a server the
        // generation was planned without is below it): its parent is cut there. In the other trees it ran a leaf,
        // which had nothing to send but its end (LocalRepairs ends it).
        List<VertexPlan> tops = new ShufflePlan(base, views.planView(base)).forServer(failed).stream()
                .filter(v -> v.vertex() == failed && !v.inputs().isEmpty()).toList();
        RepairCuts cuts = new RepairCuts(failed, incarnation);
        for (VertexPlan top : tops) {
            // Never the root's server: the failed vertex is no neighbour of the root, and a parent the root adopted
            // would have left its tree out (both excluded above).
            cuts.ask(top.output().orElseThrow().receiverHost(), new CutMessages.Cut(base.streamKey(), base.partition(), top.tree(),
                    trees.parent(top.tree(), failed), failed, incarnation, base.generation().number() + 1));
        }
        r.cuts = cuts;
        r.repairedServer = failed;
        r.repairedRun = incarnation;
        if (tops.isEmpty()) {
            cutDone(r, base, cuts);
            return true;
        }
        try {
            sendCuts(cuts);
        } catch (RuntimeException e) {
            LOG.warn("shuffle {}: the cuts of its tree repair could not be sent", base.describe(), e);
            r.cuts = null;
            return false;
        }
        scheduleCutCheck(r, cuts, CUT_RESEND_MS, CUT_RESEND_MS);
        return true;
    }

    private void sendCuts(RepairCuts cuts) {
        cuts.forEachUnanswered((host, cut) -> context.node().sendService(shape.coord(host),
                new StreamId(cut.streamKey(), cut.partition(), ControlTrees.CONTROL, context.node().index()),
                Unpooled.wrappedBuffer(CutMessages.cut(cut))));
    }

    private void scheduleCutCheck(RootedShuffles.Rooted r, RepairCuts cuts, long delayMs, long waitedMs) {
        context.timer().schedule(() -> context.vertices().execute(() -> checkCuts(r, cuts, delayMs, waitedMs)),
                delayMs, TimeUnit.MILLISECONDS);
    }

    /**
     * {@code waitedMs} after the cuts were sent: sends the unanswered ones again (service messages are best effort, and
     * cutting twice cuts once), backing off, or restarts whole once {@link #CUT_WAIT_MS} has passed.
     */
    private void checkCuts(RootedShuffles.Rooted r, RepairCuts cuts, long delayMs, long waitedMs) {
        synchronized (r) {
            if (r.cuts != cuts || rooted.get(r.spec) != r) {
                return; // answered, or the shuffle moved on
            }
            if (waitedMs >= CUT_WAIT_MS) {
                restartWhole.accept(r, "server " + shape.coord(cuts.failed()) + " failed, and its vertex's parents in "
                        + cuts.unanswered().orElse("no tree") + " did not answer their cut within " + CUT_WAIT_MS
                        + " ms");
                return;
            }
            try {
                sendCuts(cuts);
            } catch (RuntimeException e) {
                LOG.debug("shuffle {}: a cut could not be sent again", r.spec.describe(), e);
            }
            long next = Math.min(2 * delayMs, CUT_WAIT_MS - waitedMs);
            scheduleCutCheck(r, cuts, next, waitedMs + next);
        }
    }

    /** A daemon answered a cut (a vertex thread; takes the shuffle's monitor). */
    void cutAnswered(Coord from, CutMessages.CutDone answer) {
        RootedShuffles.Rooted r = rooted.current(answer.streamKey(), answer.partition());
        if (r == null) {
            return;
        }
        synchronized (r) {
            RepairCuts cuts = r.cuts;
            if (cuts == null || r.spec.streamKey() != answer.streamKey() || !cuts.answer(shape.index(from), answer)) {
                LOG.debug("shuffle {}: cut answer from {} for tree {} not awaited; dropped", r.spec.describe(), from,
                        answer.tree());
                return;
            }
            if (cuts.complete()) {
                cutDone(r, r.spec, cuts);
            }
        }
    }

    /** Every cut answered: starts the repair generation, or restarts whole (the caller holds the monitor). */
    private void cutDone(RootedShuffles.Rooted r, ShuffleSpec base, RepairCuts cuts) {
        r.cuts = null;
        if (r.stream.finished()) {
            return; // the root vertex is done or failed: its end or failure reaches the reducer
        }
        int failed = cuts.failed();
        List<Integer> trees = new ArrayList<>();
        List<Optional<byte[]>> keys = new ArrayList<>();
        for (Map.Entry<Integer, CutMessages.CutDone> e : cuts.answers().entrySet()) {
            int tree = e.getKey();
            CutMessages.CutDone a = e.getValue();
            switch (a.outcome()) {
                case ENDED -> {
                    continue; // its stream had ended: nothing of that subtree is missing
                }
                case INEXACT -> {
                    restartWhole.accept(r, "server " + shape.coord(failed) + " failed while its vertex in tree " + tree
                            + " was passing its parent a key group too large to hold back");
                    return;
                }
                case REFUSED -> {
                    restartWhole.accept(r, "server " + shape.coord(failed) + " failed, and its vertex's parent in tree "
                            + tree + " could not be cut: " + a.reason());
                    return;
                }
                case TAKEN -> {
                    trees.add(tree);
                    // A subtree that passed nothing whole yet resumes where its generation did.
                    keys.add(a.key().or(() -> base.generation().resumeAfter()));
                }
            }
        }
        // Planned on the generation's failures and this one, whatever the view holds by now: a failure since then
        // restarts the shuffle whole on its own report (one repair per generation), and a new run of the failed
        // server that rejoined meanwhile runs nothing of the repair (the run named failed is the old one).
        ShuffleGeneration g;
        try {
            g = withFailure(base.generation(), cuts, new TreeRepair(failed,
                    trees.stream().mapToInt(Integer::intValue).toArray(), keys));
        } catch (IllegalArgumentException tooLong) {
            restartWhole.accept(r, "server " + shape.coord(failed) + " failed: " + tooLong.getMessage());
            return;
        }
        ShuffleSpec repair = base.withGeneration(g);
        r.repair = repair;
        r.lastRepair = repair;
        counters.repaired();
        LOG.info("server {} failed: shuffle {} repairs {} ({} bytes had reached the reducer)", shape.coord(failed),
                base.describe(), g, r.stream.bytesDelivered());
        try {
            launch.accept(r, repair);
        } catch (RuntimeException e) {
            // E.g. a START too large for one frame once the trees' keys are in it: the trees are cut already, so
            // nothing may wait for this repair; the whole restart aborts it and the generation it repairs.
            LOG.warn("shuffle {}: its tree repair could not start", base.describe(), e);
            restartWhole.accept(r, "its tree repair could not start: " + e.getMessage());
        }
    }

    /** The repair of {@code g} by {@code repair}: planned on {@code g}'s failed servers and the one cut for. */
    private static ShuffleGeneration withFailure(ShuffleGeneration g, RepairCuts cuts, TreeRepair repair) {
        int[] failed = g.failed();
        long[] runs = g.incarnations();
        int i = failed.length;
        failed = Arrays.copyOf(failed, i + 1);
        runs = Arrays.copyOf(runs, i + 1);
        for (; i > 0 && failed[i - 1] > cuts.failed(); i--) {
            failed[i] = failed[i - 1];
            runs[i] = runs[i - 1];
        }
        failed[i] = cuts.failed();
        runs[i] = cuts.failedRun();
        return g.repairing(repair, failed, runs);
    }

    /** The root vertex of generation {@code spec} failed: a repair generation running beside it stops too. */
    void rootFailed(ShuffleSpec spec, String reason) {
        RootedShuffles.Rooted r = rooted.get(spec);
        if (r != null) {
            synchronized (r) {
                ShuffleSpec repair = r.repair;
                if (repair != null && r.spec.equals(spec)) {
                    r.repair = null;
                    abort.accept(repair, reason);
                }
            }
        }
    }

    /**
     * A repair generation was aborted by a peer (a daemon could not run its part, or refused it): the trees it was to
     * rebuild would never end, so the shuffle restarts whole. The caller holds no shuffle's monitor.
     */
    void repairAborted(long streamKey, int partition, String reason) {
        for (RootedShuffles.Rooted r : rooted.all()) {
            ShuffleSpec repair = r.repair;
            if (repair != null && repair.streamKey() == streamKey && repair.partition() == partition) {
                repairFailed(repair, reason);
            }
        }
    }

    /**
     * Repair generation {@code repair} cannot go on (its part here could not run, a daemon did not answer its START,
     * or one of its streams into the root failed): the shuffle restarts whole, once. Takes only that shuffle's monitor
     * (the caller may hold it already).
     */
    void repairFailed(ShuffleSpec repair, String reason) {
        RootedShuffles.Rooted r = rooted.get(repair);
        if (r == null) {
            return;
        }
        synchronized (r) {
            if (repair.equals(r.repair) && rooted.get(r.spec) == r && !r.stream.finished()) {
                restartWhole.accept(r, "its tree repair was aborted: " + reason);
            }
        }
    }
}
