package org.camdoop.shuffle.protocol;

import org.camdoop.torus.trees.TreeChoice;

/** Wire codes of the shuffle mode and tree choice in START_SHUFFLE ({@link LocalWire}). Stateless. */
public final class ShuffleCodes {
    private ShuffleCodes() {}

    public static int code(ShuffleMode mode) {
        return mode.ordinal();
    }

    public static int code(TreeChoice trees) {
        return trees.ordinal();
    }

    public static ShuffleMode mode(int code) {
        if (code >= ShuffleMode.values().length) {
            throw new IllegalArgumentException("unknown shuffle mode code " + code);
        }
        return ShuffleMode.values()[code];
    }

    public static TreeChoice trees(int code) {
        if (code >= TreeChoice.values().length) {
            throw new IllegalArgumentException("unknown tree choice code " + code);
        }
        return TreeChoice.values()[code];
    }
}
