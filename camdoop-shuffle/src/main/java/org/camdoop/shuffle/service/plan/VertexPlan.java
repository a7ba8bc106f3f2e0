package org.camdoop.shuffle.service.plan;

import java.util.List;
import java.util.Optional;

/**
 * What one vertex does in one shuffle.
 *
 * @param tree    the tree (for the root: -1, it merges every tree)
 * @param vertex  the logical vertex (coordinate index)
 * @param inputs  the streams it must receive, one per child, each until its end
 * @param local   which slice of this server's own map outputs it reads, if any
 * @param output  its stream to its parent; empty for the root, whose output goes to the reduce task
 * @param level   how many tree edges separate it from the root (0 for the root): of two vertices equally far
 *                through the key space, the daemon runs the nearer the root first
 */
public record VertexPlan(int tree, int vertex, List<StreamEdge> inputs, Optional<LocalSlice> local,
        Optional<StreamEdge> output, int level) {

    public VertexPlan {
        inputs = List.copyOf(inputs);
        if (level < 0 || (level == 0) != output.isEmpty()) {
            throw new IllegalArgumentException("level " + level + (output.isEmpty() ? " for the root" : " below it"));
        }
    }

    /** Whether this is the root vertex, whose merged output feeds the reducer. */
    public boolean isRoot() {
        return output.isEmpty();
    }

    /**
     * The part of the server's local map outputs a vertex reads: stripe {@code stripe} of {@code stripes} (keys are
     * assigned to stripes by a hash of their bytes), or everything when {@code stripes == 1}.
     */
    public record LocalSlice(int stripe, int stripes) {

        public LocalSlice {
            if (stripes < 1 || stripe < 0 || stripe >= stripes) {
                throw new IllegalArgumentException("stripe " + stripe + " of " + stripes);
            }
        }

        /** The whole local output, unstriped. */
        public static LocalSlice all() {
            return new LocalSlice(0, 1);
        }
    }
}
