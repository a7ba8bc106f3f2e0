package org.camdoop.shuffle.aggregation.exactlyonce;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.camdoop.shuffle.protocol.MapAttemptSummary;
import org.camdoop.shuffle.protocol.MissingMapAttempts;

/**
 * The root's union-and-check of the end-of-stream summaries of one partition against the map attempts the reduce task
 * expects (from its completion events). Names every missing, duplicated (with the streams that carried it) and
 * unexpected attempt, e.g. {@code partition 3: map attempts missing: [attempt_x_m_000004_0]; duplicated:
 * [attempt_x_m_000001_0 (from tree 2 and tree 5)]}. Immutable.
 */
public final class ExactlyOnceReport {
    private final int partition;
    private final SortedSet<String> missing;
    private final SortedMap<String, List<String>> duplicated;
    private final SortedSet<String> unexpected;

    private ExactlyOnceReport(int partition, SortedSet<String> missing, SortedMap<String, List<String>> duplicated,
            SortedSet<String> unexpected) {
        this.partition = partition;
        this.missing = Collections.unmodifiableSortedSet(missing);
        this.duplicated = Collections.unmodifiableSortedMap(duplicated);
        this.unexpected = Collections.unmodifiableSortedSet(unexpected);
    }

    /** Checks that {@code received} together include each of {@code expected} exactly once and nothing else. */
    public static ExactlyOnceReport check(int partition, Collection<String> expected, List<MapAttemptSummary> received) {
        Map<String, List<String>> sources = sourcesByAttempt(received);
        SortedSet<String> missing = new TreeSet<>(expected);
        missing.removeAll(sources.keySet());
        SortedSet<String> unexpected = new TreeSet<>(sources.keySet());
        unexpected.removeAll(expected);
        return new ExactlyOnceReport(partition, missing, duplicates(sources), unexpected);
    }

    /** Only the overlaps among {@code parts} (what a vertex can check without knowing the expected set). */
    /**
     * What a vertex reports upwards: the union of its local attempts and its children's summaries, labelled
     * {@code source}. An overlap is an exactly-once violation here already, reported with the parts' sources.
     */
    public static MapAttemptSummary union(String source, int partition, List<MapAttemptSummary> parts)
            throws ExactlyOnceViolationException {
        // Every vertex of every shuffle runs this: the common case (no overlap) costs one set; the sources of each
        // attempt are gathered only to name a violation.
        SortedSet<String> all = new TreeSet<>();
        int total = 0;
        for (MapAttemptSummary part : parts) {
            all.addAll(part.attempts());
            total += part.attempts().size();
        }
        if (all.size() != total) {
            throw new ExactlyOnceViolationException(duplicatesOnly(partition, parts));
        }
        return MapAttemptSummary.of(source, all);
    }

    static ExactlyOnceReport duplicatesOnly(int partition, List<MapAttemptSummary> parts) {
        return new ExactlyOnceReport(partition, new TreeSet<>(), duplicates(sourcesByAttempt(parts)), new TreeSet<>());
    }

    private static Map<String, List<String>> sourcesByAttempt(List<MapAttemptSummary> summaries) {
        Map<String, List<String>> sources = new LinkedHashMap<>();
        for (MapAttemptSummary summary : summaries) {
            for (String attempt : summary.attempts()) {
                sources.computeIfAbsent(attempt, a -> new ArrayList<>()).add(summary.source());
            }
        }
        return sources;
    }

    private static SortedMap<String, List<String>> duplicates(Map<String, List<String>> sources) {
        SortedMap<String, List<String>> duplicated = new TreeMap<>();
        sources.forEach((attempt, from) -> {
            if (from.size() > 1) {
                duplicated.put(attempt, List.copyOf(from));
            }
        });
        return duplicated;
    }

    public boolean isExactlyOnce() {
        return missing.isEmpty() && duplicated.isEmpty() && unexpected.isEmpty();
    }

    public int partition() {
        return partition;
    }

    public SortedSet<String> missing() {
        return missing;
    }

    /** Each attempt included more than once, with the sources that carried it, in arrival order. */
    public SortedMap<String, List<String>> duplicated() {
        return duplicated;
    }

    /** Attempts included although the reduce task does not expect them (obsolete or unknown attempts). */
    public SortedSet<String> unexpected() {
        return unexpected;
    }

    /** Throws if the check failed; the exception's message is {@link #message()}. */
    public void throwIfViolated() throws ExactlyOnceViolationException {
        if (!isExactlyOnce()) {
            throw new ExactlyOnceViolationException(this);
        }
    }

    /** "partition P: ok" or every violation, each kind only when present, separated by "; ". */
    public String message() {
        if (isExactlyOnce()) {
            return "partition " + partition + ": every map attempt included exactly once";
        }
        List<String> parts = new ArrayList<>();
        if (!missing.isEmpty()) {
            parts.add(MissingMapAttempts.describe(missing));
        }
        if (!duplicated.isEmpty()) {
            List<String> items = new ArrayList<>();
            duplicated.forEach((attempt, from) -> items.add(attempt + " (from " + joinSources(from) + ")"));
            parts.add((missing.isEmpty() ? "map attempts duplicated: " : "duplicated: ") + items);
        }
        if (!unexpected.isEmpty()) {
            parts.add((parts.isEmpty() ? "map attempts unexpected: " : "unexpected: ") + unexpected);
        }
        return "partition " + partition + ": " + String.join("; ", parts);
    }

    private static String joinSources(List<String> from) {
        String last = from.get(from.size() - 1);
        return String.join(", ", from.subList(0, from.size() - 1)) + " and " + last;
    }

    @Override
    public String toString() {
        return message();
    }
}
