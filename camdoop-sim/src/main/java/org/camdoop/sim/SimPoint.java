package org.camdoop.sim;

/**
 * One point of a figure: both modes simulated and the switch bounds.
 *
 * @param figure      "6", "7c", "7d" or "point"
 * @param ratioS      S as requested (0 = 1/N)
 * @param reducers    R
 * @param camdoop     seconds with on-path aggregation
 * @param noagg       seconds without
 * @param camdoopLinkBound the busiest link's camdoop bytes over the link rate: what the pipeline adds is above it
 * @param noaggLinkBound   the same for noagg
 * @param bounds      the switch lower bounds
 * @param symmetric   whether the roots were reduced to one by symmetry
 * @param wallSeconds what simulating the point took
 */
public record SimPoint(String figure, double ratioS, int reducers, double camdoop, double noagg,
        double camdoopLinkBound, double noaggLinkBound, SwitchBounds bounds,
        boolean symmetric, double wallSeconds) {
}
