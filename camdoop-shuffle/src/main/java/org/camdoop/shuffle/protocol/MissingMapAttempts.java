package org.camdoop.shuffle.protocol;

import java.util.Collection;
import java.util.List;

/**
 * How a failure reason names map attempts whose outputs a shuffle did not have: the root writes it (its exactly-once
 * check at the end of a partition) and the reduce task reads it back out of the reason the root's stream failed with,
 * to report those outputs lost to the ApplicationMaster. Text, because a failure reaches the task as text; one class
 * for both ends, so the two cannot drift apart. Stateless.
 */
public final class MissingMapAttempts {

    private static final String MARKER = "map attempts missing: [";

    private MissingMapAttempts() {
    }

    /** "map attempts missing: [a, b]" for the attempts in their iteration order. */
    public static String describe(Collection<String> attempts) {
        return MARKER + String.join(", ", attempts) + "]";
    }

    /** The attempts a text names missing (the first such list in it); empty if it names none. */
    public static List<String> in(String text) {
        int at = text == null ? -1 : text.indexOf(MARKER);
        int end = at < 0 ? -1 : text.indexOf(']', at);
        if (end < 0) {
            return List.of();
        }
        String list = text.substring(at + MARKER.length(), end);
        return list.isEmpty() ? List.of() : List.of(list.split(", "));
    }
}
