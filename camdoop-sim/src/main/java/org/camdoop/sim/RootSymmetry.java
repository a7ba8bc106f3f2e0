package org.camdoop.sim;

import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.trees.SpanningTrees;
import org.camdoop.torus.trees.TreeChoice;

/**
 * Which roots must be simulated. When the reducers' roots form a group of torus translations (R a power of two on a
 * torus of power-of-two sides, roots at {@code p N / R}) and every root's trees are the root-0 trees translated, every
 * root sees the same flows at the same times. Then simulating root 0 alone is exact: each real link carries one copy
 * of every root-0 flow whose link lies in its orbit under the group, so a link of the reduced model is an orbit, with
 * the capacity of one link. Otherwise every root is simulated on the real links.
 *
 * @param simulatedRoots the roots whose trees become flows
 * @param vertexOrbit    for each server, the representative of its orbit (itself when nothing is reduced)
 * @param reduced        whether the roots were reduced to one by symmetry
 */
public record RootSymmetry(int[] simulatedRoots, int[] vertexOrbit, boolean reduced) {

    // Trees of this many roots are compared with root 0's, translated; a sanity check of what the tree rules promise.
    private static final int TRANSLATION_CHECKS = 4;

    /** Roots of partitions 0..R-1 on {@code shape}: {@code p N / R}, as the benchmark places them. */
    public static int[] roots(TorusShape shape, int reducers) {
        int n = shape.size();
        if (reducers < 1 || reducers > n) {
            throw new IllegalArgumentException("reducers must be in [1, " + n + "], got " + reducers);
        }
        int[] roots = new int[reducers];
        for (int p = 0; p < reducers; p++) {
            roots[p] = (int) ((long) p * n / reducers);
        }
        return roots;
    }

    /** Reduces {@code roots} by translation symmetry when they allow it. */
    public static RootSymmetry of(TorusShape shape, TreeChoice choice, int[] roots) {
        int n = shape.size();
        if (roots[0] == 0 && isGroup(shape, roots) && translatesTrees(shape, choice, roots)) {
            int[] orbit = new int[n];
            for (int v = 0; v < n; v++) {
                int rep = v;
                for (int g : roots) {
                    rep = Math.min(rep, translate(shape, v, g));
                }
                orbit[v] = rep;
            }
            return new RootSymmetry(new int[] {0}, orbit, roots.length > 1);
        }
        return none(shape, roots);
    }

    /** Every root simulated on the real links: the reference the reduction must agree with. */
    public static RootSymmetry none(TorusShape shape, int[] roots) {
        int[] identity = new int[shape.size()];
        for (int v = 0; v < identity.length; v++) {
            identity[v] = v;
        }
        return new RootSymmetry(roots.clone(), identity, false);
    }

    /** Server {@code v} moved by the translation that takes server 0 to server {@code g}. */
    static int translate(TorusShape shape, int v, int g) {
        return shape.index((shape.x(v) + shape.x(g)) % shape.dim(0), (shape.y(v) + shape.y(g)) % shape.dim(1),
                (shape.z(v) + shape.z(g)) % shape.dim(2));
    }

    // A finite set closed under addition is a group.
    private static boolean isGroup(TorusShape shape, int[] roots) {
        boolean[] member = new boolean[shape.size()];
        for (int g : roots) {
            member[g] = true;
        }
        for (int a : roots) {
            for (int b : roots) {
                if (!member[translate(shape, a, b)]) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean translatesTrees(TorusShape shape, TreeChoice choice, int[] roots) {
        SpanningTrees base = choice.build(shape, 0);
        for (int i = 1; i <= TRANSLATION_CHECKS && i < roots.length; i++) {
            int g = roots[(int) ((long) i * (roots.length - 1) / TRANSLATION_CHECKS)];
            SpanningTrees moved = choice.build(shape, g);
            if (moved.count() != base.count()) {
                return false;
            }
            for (int t = 0; t < base.count(); t++) {
                for (int v = 0; v < shape.size(); v++) {
                    if (moved.parentPort(t, translate(shape, v, g)) != base.parentPort(t, v)) {
                        return false;
                    }
                }
            }
        }
        return true;
    }
}
