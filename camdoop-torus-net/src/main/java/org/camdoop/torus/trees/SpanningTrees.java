package org.camdoop.torus.trees;

import org.camdoop.torus.topology.Port;
import org.camdoop.torus.topology.TorusShape;

/**
 * A set of logical spanning trees over every coordinate of a torus, all rooted at one coordinate (the reducer's).
 * Vertices are coordinate indices; a logical parent is always one hop away. Any server computes any answer locally
 * from the shape and the root alone, in O(1) per vertex: there is no global coordination and nothing to distribute.
 */
public interface SpanningTrees {

    TorusShape shape();

    /** The root's index. */
    int root();

    /** Number of trees (0 on a single-server torus). */
    int count();

    /** The port from {@code vertex} to its parent in {@code tree}, or {@code null} for the root. */
    Port parentPort(int tree, int vertex);

    /** The parent's index in {@code tree}, or -1 for the root. */
    default int parent(int tree, int vertex) {
        Port p = parentPort(tree, vertex);
        return p == null ? -1 : shape().neighbour(vertex, p);
    }

    /** The vertices whose parent in {@code tree} is {@code vertex} (at most one per link of the vertex). */
    default int[] children(int tree, int vertex) {
        int[] found = new int[6];
        int n = 0;
        for (Port p : shape().links()) {
            int u = shape().neighbour(vertex, p);
            if (u != vertex && parent(tree, u) == vertex) {
                found[n++] = u;
            }
        }
        return java.util.Arrays.copyOf(found, n);
    }

    /** One line for operators: how many trees and why (e.g. which dimensions are too small for two trees). */
    String describe();
}
