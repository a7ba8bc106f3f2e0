package org.camdoop.torus.trees;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.camdoop.torus.topology.Port;
import org.camdoop.torus.topology.TorusShape;

/**
 * Checks the tree invariants of DESIGN section 4 on a set of logical trees and lists every violation found (the first
 * few per kind), so a failing test says exactly what broke and where.
 */
final class TreeInvariants {

    private static final int MAX_REPORTED = 10;

    private TreeInvariants() {
    }

    /**
     * @param disjoint whether the trees claim to be arc-disjoint (six trees) rather than, e.g., one shortest-path tree
     */
    static List<String> violations(SpanningTrees trees, boolean disjoint) {
        List<String> out = new ArrayList<>();
        TorusShape shape = trees.shape();
        int n = shape.size();
        int root = trees.root();
        int k = trees.count();
        int links = shape.links().size();
        boolean full = k == links;
        for (int t = 0; t < k; t++) {
            if (trees.parentPort(t, root) != null) {
                add(out, "tree " + t + ": root has a parent");
            }
            if (disjoint && n > 1 && trees.children(t, root).length != 1) {
                add(out, "tree " + t + ": root has " + trees.children(t, root).length + " children, not 1");
            }
        }
        for (int v = 0; v < n; v++) {
            if (v == root) {
                continue;
            }
            Set<Integer> parents = new HashSet<>();
            for (int t = 0; t < k; t++) {
                Port p = trees.parentPort(t, v);
                if (p == null || !shape.links().contains(p)) {
                    add(out, "tree " + t + ": vertex " + shape.coord(v) + " uses port " + p + ", not a link");
                    continue;
                }
                int parent = trees.parent(t, v);
                if (parent == v || shape.hopDistance(v, parent) != 1) {
                    add(out, "tree " + t + ": parent of " + shape.coord(v) + " is not one hop away");
                }
                parents.add(parent);
                // Following parents reaches the root within n steps, or there is a cycle.
                int u = v;
                int steps = 0;
                while (u != root && steps++ <= n) {
                    u = trees.parent(t, u);
                }
                if (u != root) {
                    add(out, "tree " + t + ": " + shape.coord(v) + " never reaches the root");
                }
            }
            if (disjoint && parents.size() != k) {
                add(out, shape.coord(v) + " has " + parents.size() + " distinct parents over " + k + " trees");
            }
            if (disjoint && full && parents.size() != links) {
                add(out, shape.coord(v) + ": only " + parents.size() + " of its " + links + " outgoing links carry a tree");
            }
        }
        return out;
    }

    private static void add(List<String> out, String violation) {
        if (out.size() < MAX_REPORTED) {
            out.add(violation);
        }
    }
}
