package org.camdoop.shuffle.local;

import org.camdoop.shuffle.service.ShuffleMode;
import org.camdoop.torus.trees.TreeChoice;

/** Wire codes of the shuffle mode and tree choice in START_SHUFFLE ({@link LocalWire}). Stateless. */
final class LocalCodes {
    private LocalCodes() {}

    static int code(ShuffleMode mode) {
        return mode.ordinal();
    }

    static int code(TreeChoice trees) {
        return trees.ordinal();
    }

    static ShuffleMode mode(int code) {
        if (code >= ShuffleMode.values().length) {
            throw new IllegalArgumentException("unknown shuffle mode code " + code);
        }
        return ShuffleMode.values()[code];
    }

    static TreeChoice trees(int code) {
        if (code >= TreeChoice.values().length) {
            throw new IllegalArgumentException("unknown tree choice code " + code);
        }
        return TreeChoice.values()[code];
    }
}
