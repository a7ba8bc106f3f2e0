package org.camdoop.torus.trees;

import java.util.Arrays;
import org.camdoop.torus.routing.Identifier;
import org.camdoop.torus.routing.KeySpace;
import org.camdoop.torus.routing.RoutingTable;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.TorusShape;

/**
 * Logical trees placed on live servers for one failure view (paper section 4.2). The logical trees never change; a
 * live server hosts its own coordinate's vertex in every tree, and each tree edge becomes the shortest live path
 * between the two hosts: one hop without failures, several around a failure, none when both vertices land on one
 * server.
 *
 * <p>A failed server's vertex in tree {@code t} is hosted by the host of its parent in that tree: the parent adopts
 * it. Its six parents are six different neighbours (the trees are disjoint), so its load spreads over six servers, as
 * the paper's remapping does ("the vertexes that were running on the failed server are automatically mapped to
 * different servers"), and its edge to the parent costs no hop. (Placing all six on the one server that identifier
 * routing picks for the coordinate made that server a hotspot: every edge of the failed server's six roles converged
 * on its links, and a shuffle rooted next to a failed server took about 1.4 times as long as without the failure; now
 * about 1.2 times.) The root has no parent: a failed root coordinate is hosted where identifier routing puts its
 * vertexId (its coordinate in the top bits, the job's salt below).
 *
 * <p>Immutable and thread-safe once built.
 */
public final class HostedTrees {

    private final SpanningTrees trees;
    private final RoutingTable routes;
    /** The root vertex's host: its own server, or where identifier routing puts the vertexId of a failed root. */
    private final int rootHost;
    /** The host of each vertex in each tree: {@code hostIn[tree][vertex]}. */
    private final int[][] hostIn;

    /**
     * @param salt the low bits of every vertexId (a hash of the job id), so different jobs place a failed root
     *             coordinate on different neighbours
     */
    public HostedTrees(SpanningTrees trees, FailureView view, long salt) {
        if (!trees.shape().equals(view.shape())) {
            throw new IllegalArgumentException("trees on " + trees.shape() + " but failure view of " + view.shape());
        }
        this.trees = trees;
        this.routes = new RoutingTable(view);
        int root = trees.root();
        this.rootHost = view.isLive(root) ? root
                : new KeySpace(view).owner(Identifier.of(trees.shape().coord(root), salt));
        this.hostIn = new int[trees.count()][];
        for (int t = 0; t < hostIn.length; t++) {
            hostIn[t] = adoptedHosts(t, view);
        }
    }

    /** Tree {@code t}'s hosts: a live server hosts itself, a failed one its nearest live ancestor's host. */
    private int[] adoptedHosts(int t, FailureView view) {
        int n = trees.shape().size();
        int[] host = new int[n];
        Arrays.fill(host, -1);
        int[] path = new int[16];
        for (int v = 0; v < n; v++) {
            int len = 0;
            int u = v;
            // Walk up through failed ancestors to one whose host is known or that hosts itself.
            while (host[u] < 0 && !view.isLive(u) && trees.parent(t, u) >= 0) {
                if (len == n) {
                    throw new IllegalStateException("tree " + t + " has a cycle through vertex " + v);
                }
                if (len == path.length) {
                    path = Arrays.copyOf(path, 2 * len);
                }
                path[len++] = u;
                u = trees.parent(t, u);
            }
            if (host[u] < 0) {
                host[u] = view.isLive(u) ? u : rootHost; // u is live, or the root
            }
            for (int i = 0; i < len; i++) {
                host[path[i]] = host[u];
            }
        }
        return host;
    }

    public SpanningTrees trees() {
        return trees;
    }

    public RoutingTable routes() {
        return routes;
    }

    /** The live server that hosts the root vertex, which belongs to every tree. */
    public int rootHost() {
        return rootHost;
    }

    /** The live server that hosts {@code vertex} in {@code tree}. */
    public int host(int tree, int vertex) {
        return hostIn[tree][vertex];
    }

    /**
     * The servers a stream from {@code vertex} to its parent in {@code tree} crosses, both hosts included (length 1
     * when they are the same server, and for the root).
     *
     * @throws org.camdoop.torus.routing.UnreachableException if the failures separate the two hosts
     */
    public int[] route(int tree, int vertex) {
        int parent = trees.parent(tree, vertex);
        if (parent < 0) {
            return new int[] {hostIn[tree][vertex]};
        }
        return routes.path(hostIn[tree][vertex], hostIn[tree][parent]);
    }

    /**
     * Depth in physical hops (the sum of route lengths to the root), over every non-root vertex of every tree.
     *
     * @throws org.camdoop.torus.routing.UnreachableException if some vertex cannot reach the root
     */
    public Depth depth() {
        int max = 0;
        double sum = 0;
        for (int t = 0; t < trees.count(); t++) {
            Depth d = depth(t);
            max = Math.max(max, d.max());
            sum += d.avg();
        }
        // Every tree spans the same N - 1 non-root vertices, so the overall average is the mean of the trees'.
        return new Depth(max, trees.count() == 0 ? 0 : sum / trees.count());
    }

    /** Depth in physical hops over the non-root vertices of one tree. */
    public Depth depth(int tree) {
        int n = trees.shape().size();
        int[] memo = new int[n];
        Arrays.fill(memo, -1);
        memo[trees.root()] = 0;
        int max = 0;
        long sum = 0;
        for (int v = 0; v < n; v++) {
            int d = depthOf(tree, v, memo);
            max = Math.max(max, d);
            sum += d;
        }
        return new Depth(max, n == 1 ? 0 : (double) sum / (n - 1));
    }

    private int depthOf(int tree, int vertex, int[] memo) {
        // Walk up to the first vertex with a known depth, then fill the path back down: no recursion, so 16x16x16
        // trees (depth near 50) and bigger need no deep stack.
        int[] path = new int[64];
        int len = 0;
        int v = vertex;
        while (memo[v] < 0) {
            if (len == memo.length) {
                throw new IllegalStateException("tree " + tree + " has a cycle through vertex " + vertex);
            }
            if (len == path.length) {
                path = Arrays.copyOf(path, len * 2);
            }
            path[len++] = v;
            v = trees.parent(tree, v);
        }
        int d = memo[v];
        for (int i = len - 1; i >= 0; i--) {
            d += route(tree, path[i]).length - 1;
            memo[path[i]] = d;
        }
        return memo[vertex];
    }

    /** Maximum and average depth in hops. */
    public record Depth(int max, double avg) {
    }

    /** The floor for any tree: the average failure-free hop distance from a non-root coordinate to the root. */
    public static double shortestPathAverage(TorusShape shape, int root) {
        if (shape.size() == 1) {
            return 0;
        }
        long sum = 0;
        for (int v = 0; v < shape.size(); v++) {
            sum += shape.hopDistance(v, root);
        }
        return (double) sum / (shape.size() - 1);
    }
}
