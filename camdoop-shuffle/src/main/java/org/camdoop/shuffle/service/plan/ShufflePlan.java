package org.camdoop.shuffle.service.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.trees.HostedTrees;
import org.camdoop.torus.trees.SpanningTrees;

/**
 * The stream graph of one shuffle, as seen from any server: computed from the shuffle spec and the failure view alone,
 * so every daemon derives the same graph and each picks out its own part ({@link #forServer}).
 *
 * <p>Tree modes: every logical vertex other than the root runs once per tree used; it reads its children's streams in
 * that tree and, on the server at its own coordinate, one stripe of the local map outputs (the tree's position among
 * the trees used); it streams to its parent in that tree. The root vertex runs once for all trees: it merges the
 * root's child in every tree used with the root server's whole local output (paper section 4.1). Vertices of failed
 * or vacant coordinates run on the server identifier routing assigns; they have no local map outputs.
 *
 * <p>A tree whose link into the root died with the root's neighbour (every child of the root in it failed) is left
 * out, and the keys are striped over the trees left ({@link #treeCount}). Kept, it would have its failed vertex adopted
 * by the root, and its whole stripe would enter the root over the other trees' links: one link carrying two stripes
 * for the rest of the shuffle, where the root's links are the bottleneck at S=1. Striped over five trees, each of the
 * five links carries a fifth.
 *
 * <p>A repair generation ({@link org.camdoop.shuffle.protocol.TreeRepair}) plans only the subtrees it rebuilds
 * ({@link RepairScope}: the failed vertex and its descendants in each tree it names), striped as in the generation it
 * repairs (which ran on every tree: the root repairs no generation that left one out), and no root vertex. The failed
 * vertex runs on its parent's server (identifier routing, {@link HostedTrees}), and its parent in the generation it
 * repairs goes on and takes its stream there ({@link #repairedInputs}).
 *
 * <p>Direct mode: every live server other than the root streams its whole local output to the root, which merges
 * them all (the paper's switch baseline). Stream ids use tree 0 and the sending server.
 */
public final class ShufflePlan {

    private final ShuffleSpec spec;
    private final FailureView view;
    private final TorusShape shape;
    private final int root;
    private final HostedTrees hosted;
    /** The trees the data flows along, in tree order; tree {@code used[j]} carries stripe j of {@code used.length}. */
    private final int[] used;
    /** A repair generation's subtrees; empty for a whole generation. */
    private final Optional<RepairScope> scope;

    public ShufflePlan(ShuffleSpec spec, FailureView view) {
        this.spec = spec;
        this.view = view;
        this.shape = view.shape();
        this.root = shape.index(spec.root());
        SpanningTrees trees = spec.trees().build(shape, root);
        this.hosted = new HostedTrees(trees, view, spec.salt());
        this.scope = spec.generation().repair().map(r -> new RepairScope(trees, r));
        // A repair keeps the stripes of the generation it repairs, else a key would change tree.
        this.used = spec.generation().repair().isPresent() ? IntStream.range(0, trees.count()).toArray()
                : usedTrees(trees, view, root);
    }

    /**
     * Every tree in which some child of the root is live; all of them if none is, or if the root itself failed (its
     * shuffle then ends with its reducer, and only the plan's shape matters).
     */
    private static int[] usedTrees(SpanningTrees trees, FailureView view, int root) {
        int[] all = IntStream.range(0, trees.count()).toArray();
        if (!view.isLive(root)) {
            return all;
        }
        int[] used = Arrays.stream(all).filter(t -> Arrays.stream(trees.children(t, root)).anyMatch(view::isLive))
                .toArray();
        return used.length == 0 ? all : used;
    }

    public ShuffleSpec spec() {
        return spec;
    }

    /** The live server that runs the root vertex (the reduce task's server, unless it failed). */
    public int rootHost() {
        return hosted.rootHost();
    }

    /** Number of trees (stripes) the data flows along; 1 in direct mode. */
    public int treeCount() {
        return spec.mode() == ShuffleMode.DIRECT ? 1 : used.length;
    }

    /** The vertices server {@code server} runs, root first when it hosts the root. */
    public List<VertexPlan> forServer(int server) {
        return spec.mode() == ShuffleMode.DIRECT ? directPlan(server) : treePlan(server);
    }

    private List<VertexPlan> directPlan(int server) {
        if (!view.isLive(server)) {
            return List.of();
        }
        int rootHost = rootHost();
        if (server != rootHost) {
            return List.of(new VertexPlan(0, server, List.of(), Optional.of(VertexPlan.LocalSlice.all()),
                    Optional.of(new StreamEdge(0, server, server, rootHost)), 1));
        }
        List<StreamEdge> inputs = new ArrayList<>();
        for (int s = 0; s < shape.size(); s++) {
            if (s != rootHost && view.isLive(s)) {
                inputs.add(new StreamEdge(0, s, s, rootHost));
            }
        }
        return List.of(new VertexPlan(-1, root, inputs, Optional.of(VertexPlan.LocalSlice.all()), Optional.empty(),
                0));
    }

    private List<VertexPlan> treePlan(int server) {
        SpanningTrees trees = hosted.trees();
        List<VertexPlan> out = new ArrayList<>();
        if (hosted.rootHost() == server && spec.generation().repair().isEmpty()) {
            out.add(new VertexPlan(-1, root, rootInputs(), localSlice(root, server, 0, 1), Optional.empty(), 0));
        }
        for (int v = 0; v < shape.size(); v++) {
            if (v == root) {
                continue;
            }
            for (int stripe = 0; stripe < used.length; stripe++) {
                int t = used[stripe];
                if (hosted.host(t, v) != server || !runs(t, v)) {
                    continue;
                }
                List<StreamEdge> inputs = new ArrayList<>();
                for (int child : trees.children(t, v)) {
                    inputs.add(edge(t, child));
                }
                out.add(new VertexPlan(t, v, inputs, localSlice(v, server, stripe, used.length),
                        Optional.of(edge(t, v)), level(trees, t, v)));
            }
        }
        return out;
    }

    /** The streams into the root vertex, in its input order: the root's children in every tree used, tree by tree. */
    public List<StreamEdge> rootInputs() {
        List<StreamEdge> inputs = new ArrayList<>();
        if (spec.mode() == ShuffleMode.DIRECT) {
            throw new IllegalStateException("direct mode has no trees");
        }
        SpanningTrees trees = hosted.trees();
        for (int t : used) {
            for (int child : trees.children(t, root)) {
                inputs.add(edge(t, child));
            }
        }
        return inputs;
    }

    /**
     * A repair generation's streams out of its subtrees, tree by tree: each from the failed vertex (now on its parent's
     * server) to that parent, which runs in the generation repaired and takes it in place of the failed vertex's
     * stream, at the same input. Empty for a whole generation.
     */
    public List<StreamEdge> repairedInputs() {
        return scope.map(s -> Arrays.stream(s.repair().trees()).mapToObj(t -> edge(t, s.top())).toList())
                .orElse(List.of());
    }

    /** Whether vertex {@code vertex} of tree {@code tree} runs in this generation: all, or those a repair rebuilds. */
    private boolean runs(int tree, int vertex) {
        return scope.map(s -> s.rebuilds(tree, vertex)).orElse(true);
    }

    /** Tree edges from {@code vertex} up to the root in tree {@code tree}. */
    private int level(SpanningTrees trees, int tree, int vertex) {
        int level = 0;
        for (int u = vertex; u != root; u = trees.parent(tree, u)) {
            level++;
        }
        return level;
    }

    private StreamEdge edge(int tree, int vertex) {
        return new StreamEdge(tree, vertex, hosted.host(tree, vertex),
                hosted.host(tree, hosted.trees().parent(tree, vertex)));
    }

    private Optional<VertexPlan.LocalSlice> localSlice(int vertex, int server, int stripe, int stripes) {
        // Only the vertex at the server's own coordinate reads its disk: a failed server's map outputs died with it.
        return vertex == server ? Optional.of(new VertexPlan.LocalSlice(stripe, stripes)) : Optional.empty();
    }
}
