package org.camdoop.sim;

import java.util.Locale;

/** What a tree vertex sends up for its subtree: combined (camdoop) or only merged (noagg). */
public enum SimMode {
    /** On-path aggregation: the union of the subtree's keys. */
    CAMDOOP,
    /** No aggregation: every byte of the subtree's map outputs. */
    NOAGG;

    /** Bytes one vertex sends up one tree for a subtree of {@code subtreeServers} servers. */
    public double stripeBytes(ShuffleVolumes volumes, int subtreeServers) {
        return this == CAMDOOP ? volumes.combinedStripe(subtreeServers) : volumes.mergedStripe(subtreeServers);
    }

    /** Parses {@code camdoop} or {@code noagg} (any case). */
    public static SimMode parse(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "camdoop" -> CAMDOOP;
            case "noagg" -> NOAGG;
            default -> throw new IllegalArgumentException("unknown mode '" + text + "': expected camdoop or noagg");
        };
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
