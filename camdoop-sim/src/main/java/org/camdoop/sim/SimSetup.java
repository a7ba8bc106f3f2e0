package org.camdoop.sim;

import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.trees.TreeChoice;

/**
 * What every point of a simulation shares: the torus, the trees, the map output per server and the link rate.
 *
 * @param shape              the torus (failure-free)
 * @param trees              six disjoint trees or one shortest-path tree per root
 * @param bytesPerServer     M
 * @param linkBytesPerSecond the rate of every torus link per direction, and of a server's switch link
 */
public record SimSetup(TorusShape shape, TreeChoice trees, double bytesPerServer, double linkBytesPerSecond) {

    public SimSetup {
        if (!(bytesPerServer > 0) || !(linkBytesPerSecond > 0)) {
            throw new IllegalArgumentException("bytes per server and link rate must be > 0");
        }
    }

    /** Trees per root on this shape. */
    public int treesPerRoot() {
        return trees.build(shape, 0).count();
    }

    /** The workload at output ratio {@code s} with {@code reducers} reducers. */
    public ShuffleVolumes volumes(double s, int reducers) {
        return new ShuffleVolumes(shape.size(), bytesPerServer, s, reducers, Math.max(1, treesPerRoot()));
    }

    /** The roots of {@code reducers} partitions, reduced by symmetry where they allow it. */
    public RootSymmetry symmetry(int reducers) {
        return RootSymmetry.of(shape, trees, RootSymmetry.roots(shape, reducers));
    }

    /** Simulates one mode at one point. */
    public SimResult simulate(SimMode mode, double s, int reducers) {
        return simulate(mode, s, reducers, symmetry(reducers));
    }

    /** Simulates one mode at one point with the roots given by {@code symmetry} (computed once for both modes). */
    public SimResult simulate(SimMode mode, double s, int reducers, RootSymmetry symmetry) {
        if (treesPerRoot() == 0) {
            return new SimResult(0, 0, 0, 0, 0, 0); // one server: nothing crosses a link
        }
        TreeFlows flows = TreeFlowBuilder.build(shape, trees, symmetry, volumes(s, reducers), mode);
        return new FluidSimulation(flows, linkBytesPerSecond).run();
    }

    /** The three switch lower bounds at one point. */
    public SwitchBounds bounds(double s, int reducers) {
        return SwitchBounds.compute(volumes(s, reducers), RootSymmetry.roots(shape, reducers), linkBytesPerSecond);
    }
}
