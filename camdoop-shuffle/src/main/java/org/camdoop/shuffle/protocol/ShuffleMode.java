package org.camdoop.shuffle.protocol;

import java.util.Locale;

/** How a shuffle moves data (DESIGN section 5). */
public enum ShuffleMode {
    /** Along the trees, merging and applying the job's combiner on every hop (when the job has one). */
    CAMDOOP,
    /** Along the trees, merging only: the paper's "Camdoop (no agg.)". */
    NOAGG,
    /** No trees: every server streams its map output straight to the root, which merges them all. */
    DIRECT;

    /** Whether vertices apply the combiner. */
    public boolean combines() {
        return this == CAMDOOP;
    }

    /** Parses {@code camdoop}, {@code noagg} or {@code direct} (any case). */
    public static ShuffleMode parse(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "camdoop" -> CAMDOOP;
            case "noagg" -> NOAGG;
            case "direct" -> DIRECT;
            default -> throw new IllegalArgumentException(
                    "unknown shuffle mode '" + text + "': expected camdoop, noagg or direct");
        };
    }

    /** The name operators type. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
