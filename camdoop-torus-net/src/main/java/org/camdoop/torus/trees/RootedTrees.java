package org.camdoop.torus.trees;

import org.camdoop.torus.topology.TorusShape;

/** What every kind of tree set shares: a shape and a root inside it, fixed at construction. */
abstract class RootedTrees implements SpanningTrees {

    protected final TorusShape shape;
    protected final int root;

    RootedTrees(TorusShape shape, int root) {
        if (root < 0 || root >= shape.size()) {
            throw new IllegalArgumentException("root " + root + " is outside the torus " + shape);
        }
        this.shape = shape;
        this.root = root;
    }

    @Override
    public final TorusShape shape() {
        return shape;
    }

    @Override
    public final int root() {
        return root;
    }
}
