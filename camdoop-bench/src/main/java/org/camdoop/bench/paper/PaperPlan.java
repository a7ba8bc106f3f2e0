package org.camdoop.bench.paper;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.camdoop.bench.shuffle.ShuffleBenchOptions;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.trees.TreeChoice;

/**
 * What {@code bench paper} runs: the paper's testbed, a 3x3x3 torus, with every link shaped to one rate, and the
 * points of its Figures 5 (S swept for R=1 and R=N), 7(a/b) (R swept for S=1 and S=0) and 10 (small inputs, S=0, R=1),
 * each in the three modes. Sizes and the rate are scaled down from the paper's 843 MB per server at 1 Gbps so the
 * sweep fits on one machine; {@link #full()} and {@link #quick()} are the two calibrated presets.
 *
 * @param mbPerServer      map output per server for Figures 5 and 7, in MB
 * @param linkMbps         every torus link (and in direct mode each server's switch link), Mbit/s per direction
 * @param segmentBytes     transport segment, the unit each hop stores and forwards
 * @param ratios           the S values of Figure 5
 * @param reducerCounts    the R values of Figure 7
 * @param smallMbPerServer the input sizes of Figure 10 (the paper's 20 KB and 200 KB)
 * @param seed             the workload seed
 */
public record PaperPlan(double mbPerServer, double linkMbps, int segmentBytes, List<Double> ratios,
        List<Integer> reducerCounts, List<Double> smallMbPerServer, long seed) {

    /** The paper's testbed: 27 servers. */
    public static final TorusShape SHAPE = new TorusShape(3, 3, 3);

    /** The modes each point runs in, in the order they run (side by side). */
    public static final List<ShuffleMode> MODES = List.of(ShuffleMode.CAMDOOP, ShuffleMode.NOAGG, ShuffleMode.DIRECT);

    public PaperPlan {
        ratios = List.copyOf(ratios);
        reducerCounts = List.copyOf(reducerCounts);
        smallMbPerServer = List.copyOf(smallMbPerServer);
        // Validates the shared parameters once, with the options' own messages.
        new ShuffleBenchOptions(SHAPE, 0, 1, ShuffleMode.CAMDOOP, TreeChoice.SIX, mbPerServer, linkMbps, seed,
                segmentBytes);
        if (!(linkMbps > 0)) {
            throw new IllegalArgumentException("--link-mbps must be > 0: the sweep compares times on shaped links");
        }
        for (double s : ratios) {
            if (!(s >= 0 && s <= 1)) {
                throw new IllegalArgumentException("S values must be in [0, 1], got " + s);
            }
        }
        for (int r : reducerCounts) {
            if (r < 1 || r > SHAPE.size()) {
                throw new IllegalArgumentException("R values must be in [1, " + SHAPE.size() + "], got " + r);
            }
        }
        for (double m : smallMbPerServer) {
            if (!(m > 0) || m > 1000) {
                throw new IllegalArgumentException("small input sizes must be in (0, 1000] MB, got " + m);
            }
        }
    }

    /**
     * The full sweep, calibrated on a 2-core machine where the 27 daemons' merging, combining and map-output reading
     * for camdoop at S=0, R=1 take about 0.9 s of both cores for 0.25 MB per server: at 0.25 Mbit/s camdoop's link time
     * there (0.25 MB over six links, 1.3 s) is above that, so every mode waits for the network; at 0.5 Mbit/s camdoop
     * was CPU-bound (93 %). A 1 KB segment keeps a hop's store-and-forward delay (33 ms) small against the run. The
     * direct runs at R=1 dominate (about 210 s each); the whole sweep takes about 30 minutes.
     */
    public static PaperPlan full() {
        return new PaperPlan(0.25, 0.25, 1024, List.of(0.0, 0.25, 0.5, 0.75, 1.0), List.of(1, 3, 9, 27),
                List.of(0.02, 0.2), 1);
    }

    /** A few minutes: fewer points, a fifth of the data at twice the rate. Shows the shape, not the final figures. */
    public static PaperPlan quick() {
        return new PaperPlan(0.05, 1, 1024, List.of(0.0, 0.5, 1.0), List.of(1, 3, 9, 27), List.of(0.02, 0.2), 1);
    }

    /** The same plan with other sizes or rate (operators calibrating their own machine). */
    public PaperPlan with(double mb, double mbps, int segment) {
        return new PaperPlan(mb, mbps, segment, ratios, reducerCounts, smallMbPerServer, seed);
    }

    /** Every distinct point, each workload's three modes one after another. */
    public List<PaperPoint> points() {
        Set<PaperPoint> workloads = new LinkedHashSet<>();
        for (PaperFigure figure : PaperFigure.values()) {
            workloads.addAll(figure.workloads(this));
        }
        List<PaperPoint> points = new ArrayList<>();
        for (PaperPoint w : workloads) {
            for (ShuffleMode mode : MODES) {
                points.add(w.withMode(mode));
            }
        }
        return points;
    }

    /** The benchmark options of one point. */
    public ShuffleBenchOptions options(PaperPoint p) {
        return new ShuffleBenchOptions(SHAPE, p.ratioS(), p.reducers(), p.mode(), TreeChoice.SIX, p.mbPerServer(),
                linkMbps, seed, segmentBytes);
    }
}
