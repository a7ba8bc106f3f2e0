package org.camdoop.shuffle.protocol;

import java.util.Collection;
import java.util.Collections;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * What an end-of-stream says about its content: the map attempts (e.g. {@code attempt_..._m_000003_0}) whose records
 * the stream includes, and which stream it is ({@code source}, e.g. "tree 2" or "local"). Immutable.
 */
public final class MapAttemptSummary {
    private final String source;
    private final SortedSet<String> attempts;

    private MapAttemptSummary(String source, SortedSet<String> attempts) {
        this.source = source;
        this.attempts = Collections.unmodifiableSortedSet(attempts);
    }

    /**
     * A summary of {@code attempts} arriving on {@code source}.
     *
     * @throws IllegalArgumentException if an attempt is listed twice (a stream cannot include a map output twice)
     */
    public static MapAttemptSummary of(String source, Collection<String> attempts) {
        SortedSet<String> set = new TreeSet<>(attempts);
        if (set.size() != attempts.size()) {
            throw new IllegalArgumentException(source + ": attempt listed twice in " + attempts);
        }
        return new MapAttemptSummary(source, set);
    }

    public String source() {
        return source;
    }

    /** The attempts, sorted. */
    public SortedSet<String> attempts() {
        return attempts;
    }

    @Override
    public String toString() {
        return source + " " + attempts;
    }
}
