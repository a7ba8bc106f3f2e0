package org.camdoop.torus.trees;

import static org.camdoop.torus.topology.Port.MINUS_X;
import static org.camdoop.torus.topology.Port.MINUS_Y;
import static org.camdoop.torus.topology.Port.MINUS_Z;
import static org.camdoop.torus.topology.Port.PLUS_X;
import static org.camdoop.torus.topology.Port.PLUS_Y;
import static org.camdoop.torus.topology.Port.PLUS_Z;

import org.camdoop.torus.topology.Port;

/**
 * The rule behind {@link DisjointTrees}: for each tree, the port a vertex sends to its parent on depends only on which
 * of the vertex's coordinates, taken relative to the root, are zero (its <em>zero class</em>).
 *
 * <p>Axes here are <em>canonical</em>: the dimensions of size at least 2 of the actual shape, those of size 2
 * ("toggles", one link) first and then those of size 3 or more ("rings", two links), each group in x, y, z order.
 * The signature names them, e.g. {@code TRR} for 2x5x7. Row {@code m - 1} of a table is the zero class whose bit
 * {@code i} is set when canonical axis {@code i} is non-zero; entry {@code t} is tree {@code t}'s port there, with
 * {@code X/Y/Z} meaning canonical axis 0/1/2. The last row (no coordinate zero) names each tree by the port it
 * leaves ordinary vertices through.
 *
 * <p>Why this works: moving along a non-zero axis keeps a vertex in its class until that coordinate reaches zero;
 * moving along a zero axis enters a class with one more non-zero axis. So each tree walks a path through classes,
 * and it reaches the root from every vertex iff that walk has no cycle. Each row is a bijection between trees and
 * the ports of every vertex, so every directed link except the root's outgoing ones serves exactly one tree.
 * The tables were found by exhaustive search over class walks and chosen for the lowest average depth; the
 * invariant tests check them on every listed shape. In the full 3D case the trees pair up (+a, -a): both walk the
 * same classes; each pair leaves a zero plane with one sign and comes back with the other, so a detour costs two
 * hops, not a trip around the ring.
 *
 * <p>A shape with exactly one dimension of size 2 and at least one ring has no such rule using every port (the search
 * finds none), so {@code TR} uses 2 trees of its 3 ports and {@code TRR} 4 of its 5: one port per vertex idles.
 */
final class TreeRules {

    private TreeRules() {
    }

    /** The table for a signature, or {@code null} for the single-server torus (no axes, no trees). */
    static Port[][] table(String signature) {
        return switch (signature) {
            case "" -> null;
            case "T" -> new Port[][] {
                {PLUS_X}};
            case "R" -> new Port[][] {
                {PLUS_X, MINUS_X}};
            case "TT" -> new Port[][] {
                {PLUS_Y, PLUS_X},
                {PLUS_Y, PLUS_X},
                {PLUS_X, PLUS_Y}};
            case "TR" -> new Port[][] {
                {PLUS_Y, PLUS_X},
                {MINUS_Y, PLUS_X},
                {PLUS_X, PLUS_Y}};
            case "RR" -> new Port[][] {
                {PLUS_Y, MINUS_Y, PLUS_X, MINUS_X},
                {MINUS_Y, PLUS_Y, MINUS_X, PLUS_X},
                {PLUS_X, MINUS_X, PLUS_Y, MINUS_Y}};
            case "TTT" -> new Port[][] {
                {PLUS_Y, PLUS_Z, PLUS_X},
                {PLUS_Y, PLUS_Z, PLUS_X},
                {PLUS_X, PLUS_Z, PLUS_Y},
                {PLUS_Y, PLUS_Z, PLUS_X},
                {PLUS_Y, PLUS_X, PLUS_Z},
                {PLUS_Z, PLUS_Y, PLUS_X},
                {PLUS_X, PLUS_Y, PLUS_Z}};
            case "TTR" -> new Port[][] {
                {PLUS_Z, MINUS_Z, PLUS_Y, PLUS_X},
                {PLUS_Z, MINUS_Z, PLUS_Y, PLUS_X},
                {PLUS_Z, MINUS_Z, PLUS_X, PLUS_Y},
                {MINUS_Z, PLUS_Z, PLUS_Y, PLUS_X},
                {PLUS_Y, PLUS_X, PLUS_Z, MINUS_Z},
                {PLUS_Y, PLUS_X, PLUS_Z, MINUS_Z},
                {PLUS_X, PLUS_Y, PLUS_Z, MINUS_Z}};
            case "TRR" -> new Port[][] {
                {MINUS_Z, PLUS_Y, PLUS_Z, PLUS_X},
                {MINUS_Z, MINUS_Y, PLUS_Z, PLUS_X},
                {PLUS_Y, PLUS_X, PLUS_Z, MINUS_Y},
                {PLUS_Z, PLUS_X, MINUS_Z, PLUS_Y},
                {PLUS_Y, PLUS_Z, PLUS_X, MINUS_Y},
                {PLUS_Y, PLUS_X, MINUS_Y, PLUS_Z},
                {PLUS_X, PLUS_Y, MINUS_Y, PLUS_Z}};
            case "RRR" -> new Port[][] {
                {MINUS_Y, PLUS_Y, MINUS_Z, PLUS_Z, PLUS_X, MINUS_X},
                {PLUS_Y, MINUS_Y, MINUS_Z, PLUS_Z, MINUS_X, PLUS_X},
                {PLUS_X, MINUS_X, MINUS_Z, PLUS_Z, PLUS_Y, MINUS_Y},
                {MINUS_Y, PLUS_Y, PLUS_Z, MINUS_Z, MINUS_X, PLUS_X},
                {MINUS_Y, PLUS_Y, PLUS_X, MINUS_X, PLUS_Z, MINUS_Z},
                {PLUS_Z, MINUS_Z, PLUS_Y, MINUS_Y, MINUS_X, PLUS_X},
                {PLUS_X, MINUS_X, PLUS_Y, MINUS_Y, PLUS_Z, MINUS_Z}};
            default -> throw new IllegalArgumentException("no tree rule for signature " + signature);
        };
    }
}
