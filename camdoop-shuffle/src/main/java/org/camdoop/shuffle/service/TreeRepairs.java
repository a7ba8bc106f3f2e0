package org.camdoop.shuffle.service;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.camdoop.shuffle.protocol.ShuffleGeneration;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.protocol.TreeRepair;
import org.camdoop.shuffle.service.plan.ShufflePlan;
import org.camdoop.shuffle.service.plan.StreamEdge;
import org.camdoop.shuffle.service.plan.VertexPlan;
import org.camdoop.shuffle.service.vertex.InputCut;
import org.camdoop.shuffle.service.vertex.Vertex;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.trees.SpanningTrees;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The root's side of a tree repair (paper section 4.2, docs/recovery.md "Tree repair"): when a server that held no map
 * output of a shuffle fails, only the trees in which it ran a vertex with children are rebuilt, each from just after
 * the last key the root vertex took whole from it; the other trees run on, and the failed server's leaf vertices,
 * which had nothing to send but their end, count as ended. Everything else (a second failure in a generation, a
 * server that held outputs, a neighbour of the root, a tree left out of the generation, a key group too large to hold
 * back) takes the whole restart, as before.
 *
 * <p>Steps: {@link #tryRepair} (under the shuffle's monitor) asks the root vertex to cut the inputs of those trees;
 * the vertex answers on its own thread with where each stands, and {@link #cutDone} (under the monitor again) starts
 * the repair generation, or falls back to the whole restart if a cut input cannot resume exactly. A failure that comes
 * between the two takes the whole restart, which aborts the generation the cut was for; the answer then finds the
 * shuffle moved on and does nothing.
 */
final class TreeRepairs {

    private static final Logger LOG = LoggerFactory.getLogger(TreeRepairs.class);
    /**
     * The largest key group a root vertex holds back whole per tree, so that a tree repair resumes that tree exactly
     * (WholeGroupInput); a larger one in the way makes the repair a restart of the whole shuffle.
     */
    static final int MAX_HELD_GROUP_BYTES = 1 << 20;

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
     * starts repairing the trees it touched if it can (the caller holds {@code r}'s monitor).
     *
     * @return whether the repair took the failure on; false leaves it to the whole restart
     */
    boolean tryRepair(RootedShuffles.Rooted r, int failed, long incarnation, SortedSet<String> lost) {
        ShuffleSpec base = r.spec;
        int root = shape.index(base.root());
        if (r.repair != null || r.repairing || r.waiting() || !(r.output instanceof GenerationOutput)
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
            // A neighbour of the root: its tree's stripe would enter the root over the other trees' links, unevenly,
            // where the whole restart stripes the keys over the trees left (ShufflePlan). Measured on 2026-11-27 at
            // S=1, 50 Mbit/s: repaired 1.36-1.39 / 1.23 / 1.15 at 0.25 / 0.5 / 0.75 T, restarted 1.20-1.23 / 1.15-1.16
            // / 1.08-1.14.
            return false;
        }
        if (edges.stream().mapToInt(StreamEdge::tree).distinct().count() != trees.count()
                || edges.size() != trees.count()
                || base.generation().number() + 2 >= ShuffleGeneration.MAX_GENERATIONS) {
            // A tree left out (a vacant neighbour of the root): the stripes are fewer than the trees, and a repair
            // plans on all of them. Or more than one stream per tree, whose resume keys would differ. Or no
            // generation left for the restart a second failure would need.
            return false;
        }
        // The trees in which the failed server ran a vertex with children: its own, or one it adopted for a server
        // the generation was planned without (ShufflePlan, HostedTrees). In the others all it ran were leaves, which
        // had nothing to send but their ends.
        Set<Integer> withChildren = new ShufflePlan(base, views.planView(base)).forServer(failed).stream()
                .filter(v -> !v.inputs().isEmpty()).map(VertexPlan::tree).collect(Collectors.toSet());
        List<Integer> cut = new ArrayList<>();
        for (int i = 0; i < edges.size(); i++) {
            if (withChildren.contains(edges.get(i).tree())) {
                cut.add(i);
            }
        }
        r.repairing = true;
        r.repairedServer = failed;
        r.repairedRun = incarnation;
        int[] inputs = cut.stream().mapToInt(Integer::intValue).toArray();
        vertex.get().cut(inputs, base.generation().number() + 1, points -> context.vertices().execute(
                () -> cutDone(r, base, failed, inputs, edges, points)));
        return true;
    }

    private void cutDone(RootedShuffles.Rooted r, ShuffleSpec base, int failed, int[] inputs, List<StreamEdge> edges,
            List<InputCut> points) {
        synchronized (r) {
            if (rooted.get(base) != r || r.spec != base || !r.repairing) {
                return; // a whole restart (or the end) came first
            }
            r.repairing = false;
            if (r.stream.finished() || points.isEmpty()) {
                return; // the root vertex is done or failed: its end or failure reaches the reducer
            }
            List<Integer> trees = new ArrayList<>();
            List<Optional<byte[]>> keys = new ArrayList<>();
            for (int k = 0; k < inputs.length; k++) {
                var p = points.get(k);
                if (p.ended()) {
                    continue;
                }
                int tree = edges.get(inputs[k]).tree(); // one stream per tree (tryRepair)
                if (!p.exact()) {
                    restartWhole.accept(r, "server " + shape.coord(failed) + " failed while tree " + tree
                            + " was passing the root a key group too large to hold back");
                    return;
                }
                trees.add(tree);
                // A tree that passed nothing whole yet resumes where its generation did.
                keys.add(p.lastKey().or(() -> base.generation().resumeAfter()));
            }
            ShuffleGeneration g;
            try {
                g = views.repairGeneration(base.generation(),
                        new TreeRepair(trees.stream().mapToInt(Integer::intValue).toArray(), keys));
            } catch (IllegalArgumentException tooLong) {
                restartWhole.accept(r, "server " + shape.coord(failed) + " failed: " + tooLong.getMessage());
                return;
            }
            int[] failedNow = IntStream.concat(Arrays.stream(base.generation().failed()), IntStream.of(failed))
                    .sorted().toArray();
            if (!Arrays.equals(g.failed(), failedNow)) {
                restartWhole.accept(r, "servers " + Arrays.stream(g.failed()).mapToObj(shape::coord).toList()
                        + " failed");
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
