package org.camdoop.torus.trees;

import java.util.ArrayList;
import java.util.List;
import org.camdoop.torus.topology.Port;
import org.camdoop.torus.topology.TorusShape;

/**
 * The arc-disjoint spanning trees of paper section 4.1 (Figure 4), one per port of a server when every dimension has
 * size 3 or more: six on a 3D torus. Every non-root vertex has its parent in each tree on a different link, every
 * directed link except the root's outgoing ones carries exactly one tree, and the root has one child per tree.
 *
 * <p>Smaller dimensions give fewer trees: a dimension of size 1 has no links, one of size 2 has one link instead of two
 * (its two ports reach the same neighbour), and a shape with exactly one size-2 dimension plus rings leaves one port
 * per server idle (see {@link TreeRules}). The parent is computed in O(1) from the vertex's zero class.
 */
public final class DisjointTrees extends RootedTrees {

    private final String signature;
    // canonical axis -> actual axis (x = 0, y = 1, z = 2)
    private final int[] actualAxis;
    // [zero class - 1][tree] -> port on the actual shape
    private final Port[][] rule;

    public DisjointTrees(TorusShape shape, int root) {
        super(shape, root);
        List<Integer> axes = new ArrayList<>(3);
        StringBuilder sig = new StringBuilder();
        for (int size : new int[] {2, 3}) {
            for (int axis = 0; axis < 3; axis++) {
                int d = shape.dim(axis);
                if (size == 2 ? d == 2 : d >= 3) {
                    axes.add(axis);
                    sig.append(size == 2 ? 'T' : 'R');
                }
            }
        }
        this.signature = sig.toString();
        this.actualAxis = axes.stream().mapToInt(Integer::intValue).toArray();
        Port[][] canonical = TreeRules.table(signature);
        if (canonical == null) {
            this.rule = new Port[0][];
        } else {
            this.rule = new Port[canonical.length][];
            for (int c = 0; c < canonical.length; c++) {
                rule[c] = new Port[canonical[c].length];
                for (int t = 0; t < canonical[c].length; t++) {
                    Port p = canonical[c][t];
                    rule[c][t] = Port.of(actualAxis[p.axis()], p.sign());
                }
            }
        }
    }

    @Override
    public int count() {
        return rule.length == 0 ? 0 : rule[0].length;
    }

    /** Names the canonical axes: {@code T} per dimension of size 2, {@code R} per dimension of size 3 or more. */
    public String signature() {
        return signature;
    }

    /** The port tree {@code tree} leaves a vertex with no zero coordinate through: the tree's name. */
    public Port genericPort(int tree) {
        return rule[rule.length - 1][tree];
    }

    @Override
    public Port parentPort(int tree, int vertex) {
        if (tree < 0 || tree >= count()) {
            throw new IllegalArgumentException("tree " + tree + " does not exist: " + describe());
        }
        if (vertex == root) {
            return null;
        }
        int zeroClass = 0;
        for (int i = 0; i < actualAxis.length; i++) {
            if (shape.offset(vertex, root, actualAxis[i]) != 0) {
                zeroClass |= 1 << i;
            }
        }
        return rule[zeroClass - 1][tree];
    }

    @Override
    public String describe() {
        int ports = shape.links().size();
        int n = count();
        StringBuilder s = new StringBuilder().append(n).append(n == 1 ? " disjoint tree" : " disjoint trees");
        s.append(" (").append(ports).append(ports == 1 ? " link" : " links").append(" per server");
        List<String> notes = new ArrayList<>();
        for (int axis = 0; axis < 3; axis++) {
            int d = shape.dim(axis);
            char name = "xyz".charAt(axis);
            if (d == 1) {
                notes.add(name + " has size 1: no " + name + " links");
            } else if (d == 2) {
                notes.add(name + " has size 2: +" + name + " and -" + name + " are one link");
            }
        }
        if (n < ports) {
            notes.add("one size-2 dimension with rings: " + (ports - n) + " port per server idle");
        }
        for (String note : notes) {
            s.append("; ").append(note);
        }
        return s.append(')').toString();
    }
}
