package org.camdoop.sim;

import java.util.Arrays;
import org.camdoop.torus.topology.Port;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.trees.SpanningTrees;
import org.camdoop.torus.trees.TreeChoice;

/**
 * Turns the project's trees into {@link TreeFlows}: for each simulated root and each of its trees, one flow per
 * non-root vertex, from the vertex to its parent over the parent's link, carrying what the mode sends for the
 * vertex's subtree. Links are named by (orbit of the sending server, port), so a symmetry-reduced model shares a link
 * between all flows in one orbit.
 */
public final class TreeFlowBuilder {

    private TreeFlowBuilder() {
    }

    /**
     * @param shape    the torus (failure-free)
     * @param choice   six disjoint trees or one shortest-path tree
     * @param symmetry the roots to simulate and the link orbits
     * @param volumes  the workload, with {@code trees} equal to the trees per root
     * @param mode     combined or merged volumes
     */
    public static TreeFlows build(TorusShape shape, TreeChoice choice, RootSymmetry symmetry, ShuffleVolumes volumes,
            SimMode mode) {
        int n = shape.size();
        int[] roots = symmetry.simulatedRoots();
        int treesPerRoot = choice.build(shape, roots[0]).count();
        if (treesPerRoot != volumes.trees()) {
            throw new IllegalArgumentException("volumes striped over " + volumes.trees() + " trees, the shape has "
                    + treesPerRoot);
        }
        int flows = roots.length * treesPerRoot * (n - 1);
        double[] volume = new double[flows];
        int[] rawLink = new int[flows];
        int[] parentFlow = new int[flows];
        int next = 0;
        int[] parent = new int[n];
        int[] depth = new int[n];
        int[] subtree = new int[n];
        int[] flowOf = new int[n];
        int[] byDepth = new int[n];
        for (int root : roots) {
            SpanningTrees trees = choice.build(shape, root);
            for (int t = 0; t < treesPerRoot; t++) {
                for (int v = 0; v < n; v++) {
                    parent[v] = trees.parent(t, v);
                }
                depths(parent, depth);
                sortByDepthDescending(depth, byDepth);
                Arrays.fill(subtree, 1);
                for (int v : byDepth) {
                    if (parent[v] >= 0) {
                        subtree[parent[v]] += subtree[v];
                    }
                }
                // Deepest first, so every child is numbered before its parent.
                int first = next;
                for (int v : byDepth) {
                    if (parent[v] < 0) {
                        continue;
                    }
                    flowOf[v] = next;
                    volume[next] = mode.stripeBytes(volumes, subtree[v]);
                    Port port = trees.parentPort(t, v);
                    rawLink[next] = symmetry.vertexOrbit()[v] * 6 + port.ordinal();
                    next++;
                }
                for (int f = first; f < next; f++) {
                    parentFlow[f] = -1;
                }
                for (int v : byDepth) {
                    if (parent[v] >= 0 && parent[parent[v]] >= 0) {
                        parentFlow[flowOf[v]] = flowOf[parent[v]];
                    }
                }
            }
        }
        return new TreeFlows(volume, denseLinks(rawLink, n * 6), countLinks(rawLink, n * 6), parentFlow);
    }

    private static void depths(int[] parent, int[] depth) {
        Arrays.fill(depth, -1);
        for (int v = 0; v < parent.length; v++) {
            int d = 0;
            int u = v;
            while (depth[u] < 0 && parent[u] >= 0) {
                u = parent[u];
                d++;
                if (d > parent.length) {
                    throw new IllegalStateException("the parent pointers have a cycle at vertex " + v);
                }
            }
            int base = depth[u] < 0 ? 0 : depth[u];
            if (depth[u] < 0) {
                depth[u] = 0; // the root
            }
            // Walk again, writing depths from v down to u.
            int w = v;
            int dw = base + d;
            while (w != u) {
                depth[w] = dw--;
                w = parent[w];
            }
        }
    }

    private static void sortByDepthDescending(int[] depth, int[] out) {
        int max = 0;
        for (int d : depth) {
            max = Math.max(max, d);
        }
        int[] start = new int[max + 2];
        for (int d : depth) {
            start[max - d + 1]++;
        }
        for (int i = 0; i <= max; i++) {
            start[i + 1] += start[i];
        }
        for (int v = 0; v < depth.length; v++) {
            out[start[max - depth[v]]++] = v;
        }
    }

    private static int countLinks(int[] rawLink, int space) {
        boolean[] used = new boolean[space];
        int count = 0;
        for (int l : rawLink) {
            if (!used[l]) {
                used[l] = true;
                count++;
            }
        }
        return count;
    }

    private static int[] denseLinks(int[] rawLink, int space) {
        int[] id = new int[space];
        Arrays.fill(id, -1);
        int next = 0;
        int[] dense = new int[rawLink.length];
        for (int f = 0; f < rawLink.length; f++) {
            if (id[rawLink[f]] < 0) {
                id[rawLink[f]] = next++;
            }
            dense[f] = id[rawLink[f]];
        }
        return dense;
    }
}
