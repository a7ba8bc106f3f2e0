package org.camdoop.bench.paper;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.camdoop.bench.shuffle.ShuffleBenchResult;
import org.camdoop.shuffle.protocol.ShuffleMode;

/**
 * What a sweep measured, point by point, in run order. Written by the sweep's one thread, read after it finished.
 *
 * @param plan         what was run
 * @param results      every point's result, in run order
 * @param wallSeconds  the whole sweep, workload generation and torus start-ups included
 */
public record PaperResults(PaperPlan plan, Map<PaperPoint, ShuffleBenchResult> results, double wallSeconds) {

    public PaperResults {
        results = Collections.unmodifiableMap(new LinkedHashMap<>(results));
    }

    /** The result of {@code p}, if it ran. */
    public Optional<ShuffleBenchResult> get(PaperPoint p) {
        return Optional.ofNullable(results.get(p));
    }

    /** Seconds of {@code p}, or NaN if it did not run. */
    public double seconds(PaperPoint p) {
        return get(p).map(ShuffleBenchResult::seconds).orElse(Double.NaN);
    }

    /** How many times faster camdoop ran than {@code other} on the workload of {@code p}; NaN if either is missing. */
    public double speedup(PaperPoint p, ShuffleMode other) {
        return seconds(p.withMode(other)) / seconds(p.withMode(ShuffleMode.CAMDOOP));
    }
}
