package org.camdoop.shuffle.service.plan;

import java.util.Optional;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.protocol.TreeRepair;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.trees.SpanningTrees;

/**
 * Which vertices a repair generation rebuilds (docs/recovery.md, "Tree repair"): in each tree it names, the failed
 * vertex and its descendants, the same in every generation since the bare trees do not depend on failures. Everything
 * else of the generation it repairs runs on, and the failed vertex's parent takes the rebuilt subtree's stream. A pure
 * function of the repair's spec, so every daemon derives the same scope.
 */
public final class RepairScope {

    private final SpanningTrees trees;
    private final TreeRepair repair;

    public RepairScope(SpanningTrees trees, TreeRepair repair) {
        this.trees = trees;
        this.repair = repair;
    }

    /** The scope of {@code spec}'s repair; empty for a whole generation. */
    public static Optional<RepairScope> of(ShuffleSpec spec, TorusShape shape) {
        return spec.generation().repair().map(r -> new RepairScope(spec.trees().build(shape, shape.index(spec.root())),
                r));
    }

    public TreeRepair repair() {
        return repair;
    }

    /** The failed vertex, the top of every rebuilt subtree. */
    public int top() {
        return repair.vertex();
    }

    /** Whether vertex {@code vertex} of tree {@code tree} is rebuilt: in a repaired tree, the top or below it. */
    public boolean rebuilds(int tree, int vertex) {
        if (!repair.repairs(tree) || tree >= trees.count()) {
            return false;
        }
        // Parents lead to the root in at most as many steps as there are vertices.
        int u = vertex;
        for (int steps = 0; u >= 0 && steps <= trees.shape().size(); steps++) {
            if (u == repair.vertex()) {
                return true;
            }
            u = trees.parent(tree, u);
        }
        return false;
    }

    /** The top's parent in tree {@code tree}: the vertex that keeps running and takes the rebuilt stream. */
    public int parentOfTop(int tree) {
        return trees.parent(tree, repair.vertex());
    }
}
