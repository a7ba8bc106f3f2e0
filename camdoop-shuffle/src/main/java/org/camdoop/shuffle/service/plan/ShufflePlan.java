package org.camdoop.shuffle.service.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
 * <p>Tree modes: every logical vertex other than the root runs once per tree; it reads its children's streams in that
 * tree and, on the server at its own coordinate, stripe {@code tree} of the local map outputs; it streams to its
 * parent in that tree. The root vertex runs once for all trees: it merges the root's child in every tree with the
 * root server's whole local output (paper section 4.1). Vertices of failed or vacant coordinates run on the server
 * identifier routing assigns; they have no local map outputs.
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

    public ShufflePlan(ShuffleSpec spec, FailureView view) {
        this.spec = spec;
        this.view = view;
        this.shape = view.shape();
        this.root = shape.index(spec.root());
        SpanningTrees trees = spec.trees().build(shape, root);
        this.hosted = new HostedTrees(trees, view, spec.salt());
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
        return spec.mode() == ShuffleMode.DIRECT ? 1 : hosted.trees().count();
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
        int count = trees.count();
        List<VertexPlan> out = new ArrayList<>();
        if (hosted.rootHost() == server) {
            List<StreamEdge> inputs = new ArrayList<>();
            for (int t = 0; t < count; t++) {
                for (int child : trees.children(t, root)) {
                    inputs.add(edge(t, child));
                }
            }
            out.add(new VertexPlan(-1, root, inputs, localSlice(root, server, 0, 1), Optional.empty(), 0));
        }
        for (int v = 0; v < shape.size(); v++) {
            if (v == root) {
                continue;
            }
            for (int t = 0; t < count; t++) {
                if (hosted.host(t, v) != server) {
                    continue;
                }
                List<StreamEdge> inputs = new ArrayList<>();
                for (int child : trees.children(t, v)) {
                    inputs.add(edge(t, child));
                }
                out.add(new VertexPlan(t, v, inputs, localSlice(v, server, t, count), Optional.of(edge(t, v)),
                        level(trees, t, v)));
            }
        }
        return out;
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
