package org.camdoop.torus.trees;

import org.camdoop.torus.topology.Port;
import org.camdoop.torus.topology.TorusShape;

/**
 * One shortest-path tree (the alternative of paper section 4.1): each vertex steps towards the root along the first
 * axis, in x, y, z order, on which it differs from the root, the short way round (the minus way on a tie). Minimal
 * hops, but the root has at most six children and the data of the whole torus enters it through them.
 */
public final class ShortestPathTree extends RootedTrees {


    public ShortestPathTree(TorusShape shape, int root) {
        super(shape, root);
    }

    @Override
    public int count() {
        return shape.size() == 1 ? 0 : 1;
    }

    @Override
    public Port parentPort(int tree, int vertex) {
        if (tree != 0 || count() == 0) {
            throw new IllegalArgumentException("tree " + tree + " does not exist: " + describe());
        }
        for (int axis = 0; axis < 3; axis++) {
            int d = shape.dim(axis);
            int o = shape.offset(vertex, root, axis);
            if (o != 0) {
                // Size-2 dimensions have one link, named PLUS.
                int sign = d == 2 ? +1 : (o <= d / 2 ? -1 : +1);
                return Port.of(axis, sign);
            }
        }
        return null;
    }

    @Override
    public String describe() {
        return count() + " shortest-path tree";
    }
}
