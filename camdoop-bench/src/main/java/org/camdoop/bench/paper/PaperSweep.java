package org.camdoop.bench.paper;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.camdoop.bench.shuffle.ShuffleBenchResult;
import org.camdoop.bench.shuffle.ShuffleBenchRunner;
import org.camdoop.shuffle.protocol.ShuffleMode;

/**
 * Runs every point of a plan, one after another on a fresh embedded torus each (the shuffle benchmark's runner), after
 * one untimed warm-up per mode so the JIT has compiled the merge and combine paths before the first measured point.
 * Prints a progress line per point. Not thread-safe: one sweep per instance.
 */
public final class PaperSweep {

    private final PaperPlan plan;
    private final Optional<PrintWriter> progress;

    public PaperSweep(PaperPlan plan, Optional<PrintWriter> progress) {
        this.plan = plan;
        this.progress = progress;
    }

    /**
     * Runs the sweep.
     *
     * @throws IllegalStateException naming the point whose shuffle failed or whose output differs from the reference:
     *                               a wrong answer makes every time meaningless, so the sweep stops there
     */
    public PaperResults run() throws IOException, InterruptedException {
        long start = System.nanoTime();
        warmUp();
        List<PaperPoint> points = plan.points();
        Map<PaperPoint, ShuffleBenchResult> results = new LinkedHashMap<>();
        for (int i = 0; i < points.size(); i++) {
            PaperPoint p = points.get(i);
            ShuffleBenchResult r;
            try {
                r = new ShuffleBenchRunner(plan.options(p), Optional.empty(), false).run();
            } catch (IllegalStateException e) {
                throw new IllegalStateException(p.describe() + ": " + e.getMessage(), e);
            }
            if (!r.correct()) {
                throw new IllegalStateException(p.describe() + ": the output differs from the reference (sha256 "
                        + r.outputSha256() + " vs " + r.referenceSha256() + ")");
            }
            results.put(p, r);
            report(i + 1, points.size(), p, r, start);
        }
        return new PaperResults(plan, results, (System.nanoTime() - start) / 1e9);
    }

    private void warmUp() throws IOException, InterruptedException {
        for (ShuffleMode mode : PaperPlan.MODES) {
            progress.ifPresent(out -> {
                out.println("bench paper: warming up " + mode.label() + " (not timed)");
                out.flush();
            });
            // S=0, R=1: the first workload of every preset, so its code paths are the ones warmed; at the plan's size
            // (up to the shuffle benchmark's), which keeps tiny test plans quick.
            ShuffleBenchRunner.warmUp(plan.options(new PaperPoint(0, 1, plan.mbPerServer(), mode)),
                    Math.min(ShuffleBenchRunner.WARMUP_MB_PER_SERVER, plan.mbPerServer()));
        }
    }

    private void report(int done, int total, PaperPoint p, ShuffleBenchResult r, long start) {
        progress.ifPresent(out -> {
            out.printf(Locale.ROOT, "bench paper: [%d/%d] %-38s %8.3f s  (bound %.3f s, cpu %2.0f %%)  elapsed %s%n",
                    done, total, p.describe(), r.seconds(), r.lowerBound().seconds(), 100 * r.cpuUtilisation(),
                    elapsed(start));
            out.flush();
        });
    }

    private static String elapsed(long start) {
        long s = (System.nanoTime() - start) / 1_000_000_000L;
        return String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }
}
