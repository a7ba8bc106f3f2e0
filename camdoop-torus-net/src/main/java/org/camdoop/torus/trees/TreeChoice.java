package org.camdoop.torus.trees;

import java.util.Locale;
import org.camdoop.torus.topology.TorusShape;

/** Which trees a reduce task's data flows along (DESIGN section 5). */
public enum TreeChoice {
    /** The arc-disjoint trees of paper section 4.1: all six links of every server carry data. */
    SIX,
    /** One shortest-path tree: fewer hops, one inbound link at the root. */
    SHORTEST;

    /** Builds the trees of this choice for {@code root} on {@code shape}. */
    public SpanningTrees build(TorusShape shape, int root) {
        return switch (this) {
            case SIX -> new DisjointTrees(shape, root);
            case SHORTEST -> new ShortestPathTree(shape, root);
        };
    }

    /** Parses {@code six} or {@code shortest} (any case). */
    public static TreeChoice parse(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "six" -> SIX;
            case "shortest" -> SHORTEST;
            default -> throw new IllegalArgumentException("unknown tree choice '" + text + "': expected six or shortest");
        };
    }

    /** The name operators type: {@code six} or {@code shortest}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
