package org.camdoop.shuffle.protocol;

import org.camdoop.torus.trees.TreeChoice;

/**
 * The one codec of shuffle mode and tree choice on every wire (the local protocol's START_SHUFFLE and the daemons'
 * START service message): one byte each, fixed here rather than taken from enum order, so reordering or adding a
 * constant cannot silently change the wire. Stateless.
 *
 * <pre>
 * mode:  0 camdoop, 1 noagg, 2 direct
 * trees: 0 six disjoint trees, 1 one shortest-path tree
 * </pre>
 */
public final class ShuffleCodes {
    private ShuffleCodes() {}

    public static int code(ShuffleMode mode) {
        return switch (mode) {
            case CAMDOOP -> 0;
            case NOAGG -> 1;
            case DIRECT -> 2;
        };
    }

    public static int code(TreeChoice trees) {
        return switch (trees) {
            case SIX -> 0;
            case SHORTEST -> 1;
        };
    }

    /** @throws IllegalArgumentException for a code no mode has */
    public static ShuffleMode mode(int code) {
        return switch (code) {
            case 0 -> ShuffleMode.CAMDOOP;
            case 1 -> ShuffleMode.NOAGG;
            case 2 -> ShuffleMode.DIRECT;
            default -> throw new IllegalArgumentException("unknown shuffle mode code " + code);
        };
    }

    /** @throws IllegalArgumentException for a code no tree choice has */
    public static TreeChoice trees(int code) {
        return switch (code) {
            case 0 -> TreeChoice.SIX;
            case 1 -> TreeChoice.SHORTEST;
            default -> throw new IllegalArgumentException("unknown tree choice code " + code);
        };
    }
}
