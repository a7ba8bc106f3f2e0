package org.camdoop.bench.paper;

import java.util.ArrayList;
import java.util.List;
import org.camdoop.shuffle.protocol.ShuffleMode;

/**
 * The paper's testbed figures the sweep reproduces, and which workloads each needs (in camdoop mode; every workload
 * runs in all three modes).
 */
public enum PaperFigure {
    /** Figure 5(a/b): time against S, R=1. */
    S_SWEEP_ONE_REDUCER("figure5-r1", "Figure 5(a,b): shuffle and reduce time vs S, R=1", "S"),
    /** Figure 5(c/d): time against S, R=N. */
    S_SWEEP_ALL_REDUCERS("figure5-r27", "Figure 5(c,d): shuffle and reduce time vs S, R=27", "S"),
    /** Figure 7(a): time against R, S=1. */
    R_SWEEP_UNIQUE_KEYS("figure7a-s1", "Figure 7(a): shuffle and reduce time vs R, S=1", "R"),
    /** Figure 7(b): time against R, S=0. */
    R_SWEEP_SHARED_KEYS("figure7b-s0", "Figure 7(b): shuffle and reduce time vs R, S=0", "R"),
    /** Figure 10: small inputs, S=0, R=1. */
    SMALL_INPUTS("figure10-small", "Figure 10: small inputs, S=0, R=1", "MB per server");

    private final String fileName;
    private final String title;
    private final String xAxis;

    PaperFigure(String fileName, String title, String xAxis) {
        this.fileName = fileName;
        this.title = title;
        this.xAxis = xAxis;
    }

    /** The file name of its plot, without extension. */
    public String fileName() {
        return fileName;
    }

    public String title() {
        return title;
    }

    public String xAxis() {
        return xAxis;
    }

    /** The workloads (camdoop mode) of this figure under {@code plan}, in x order. */
    public List<PaperPoint> workloads(PaperPlan plan) {
        List<PaperPoint> out = new ArrayList<>();
        int n = PaperPlan.SHAPE.size();
        switch (this) {
            case S_SWEEP_ONE_REDUCER -> plan.ratios().forEach(s -> out.add(point(s, 1, plan.mbPerServer())));
            case S_SWEEP_ALL_REDUCERS -> plan.ratios().forEach(s -> out.add(point(s, n, plan.mbPerServer())));
            case R_SWEEP_UNIQUE_KEYS -> plan.reducerCounts().forEach(r -> out.add(point(1, r, plan.mbPerServer())));
            case R_SWEEP_SHARED_KEYS -> plan.reducerCounts().forEach(r -> out.add(point(0, r, plan.mbPerServer())));
            case SMALL_INPUTS -> plan.smallMbPerServer().forEach(m -> out.add(point(0, 1, m)));
        }
        return out;
    }

    /** The x coordinate of {@code p} in this figure. */
    public double x(PaperPoint p) {
        return switch (this) {
            case S_SWEEP_ONE_REDUCER, S_SWEEP_ALL_REDUCERS -> p.ratioS();
            case R_SWEEP_UNIQUE_KEYS, R_SWEEP_SHARED_KEYS -> p.reducers();
            case SMALL_INPUTS -> p.mbPerServer();
        };
    }

    private static PaperPoint point(double s, int r, double mb) {
        return new PaperPoint(s, r, mb, ShuffleMode.CAMDOOP);
    }
}
