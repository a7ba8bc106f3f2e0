package org.camdoop.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.trees.TreeChoice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TreeFlowsOnTorusTest {

    private static final double M = 2e6;
    private static final double GBPS = 1e9 / 8;

    private static SimSetup setup(String shape, TreeChoice trees) {
        return new SimSetup(TorusShape.parse(shape), trees, M, GBPS);
    }

    private static TreeFlows flows(SimSetup setup, SimMode mode, double s, int reducers) {
        return TreeFlowBuilder.build(setup.shape(), setup.trees(), setup.symmetry(reducers),
                setup.volumes(s, reducers), mode);
    }

    @ParameterizedTest
    @CsvSource({"2x2x2,3", "3x3x3,6", "3x3x2,4"})
    void camdoopAtSZeroSendsOneStripePerTreeEdge(String shape, int trees) {
        SimSetup setup = setup(shape, TreeChoice.SIX);
        assertEquals(trees, setup.treesPerRoot());
        TreeFlows flows = flows(setup, SimMode.CAMDOOP, 0, 1);
        int n = setup.shape().size();
        assertEquals(trees * (n - 1), flows.count());
        for (int f = 0; f < flows.count(); f++) {
            assertEquals(M / trees, flows.volume(f), 1e-6, "flow " + f);
        }
        // Disjoint trees, one root: every tree edge has a link of its own and they all run in lockstep.
        assertEquals(flows.count(), flows.links());
        assertEquals(M / trees / GBPS, setup.simulate(SimMode.CAMDOOP, 0, 1).seconds(), 1e-12);
    }

    @Test
    void bytesIntoTheRootAreTheOutputAtSZeroWithOneReducer() {
        SimSetup setup = setup("3x3x3", TreeChoice.SIX);
        SimResult r = setup.simulate(SimMode.CAMDOOP, 0, 1);
        assertEquals(setup.volumes(0, 1).outputBytes(), r.bytesIntoRoots(), 1e-3);
        assertEquals(M, r.bytesIntoRoots(), 1e-3);
    }

    @Test
    void noaggCarriesEverySubtreeAndTheRootReceivesEveryOtherServersData() {
        SimSetup setup = setup("3x3x3", TreeChoice.SIX);
        SimResult r = setup.simulate(SimMode.NOAGG, 0.5, 1);
        assertEquals(26 * M, r.bytesIntoRoots(), 1e-3);
        // Each root child's subtree is the 26 other servers: M * 26 / 6 per inbound link.
        assertEquals(26 * M / 6 / GBPS, r.seconds(), 1e-9);
    }

    @ParameterizedTest
    @CsvSource({"0,1", "0.3,1", "1,1", "0,27", "0.5,27", "1,27", "0.2,3", "0.7,9"})
    void noaggNeverBeatsCamdoop(double s, int reducers) {
        for (TreeChoice trees : TreeChoice.values()) {
            SimSetup setup = setup("3x3x3", trees);
            double camdoop = setup.simulate(SimMode.CAMDOOP, s, reducers).seconds();
            double noagg = setup.simulate(SimMode.NOAGG, s, reducers).seconds();
            assertTrue(noagg >= camdoop * (1 - 1e-9), trees + ": noagg " + noagg + " < camdoop " + camdoop);
        }
    }

    @Test
    void neverFasterThanTheBusiestLink() {
        SimSetup setup = setup("4x4x4", TreeChoice.SIX);
        for (int reducers : new int[] {1, 4, 64}) {
            SimResult r = setup.simulate(SimMode.NOAGG, 1, reducers);
            assertTrue(r.seconds() >= r.busiestLinkBytes() / GBPS * (1 - 1e-9), "R=" + reducers);
        }
    }

    @ParameterizedTest
    @CsvSource({"4x4x4,4,SIX", "4x4x4,16,SIX", "4x4x4,16,SHORTEST", "2x2x2,8,SIX"})
    void symmetryReductionAgreesWithSimulatingEveryRoot(String shape, int reducers, TreeChoice trees) {
        SimSetup setup = setup(shape, trees);
        RootSymmetry reduced = setup.symmetry(reducers);
        assertTrue(reduced.reduced());
        RootSymmetry full = RootSymmetry.none(setup.shape(), RootSymmetry.roots(setup.shape(), reducers));
        for (SimMode mode : SimMode.values()) {
            for (double s : new double[] {0, 0.4, 1}) {
                double a = setup.simulate(mode, s, reducers, reduced).seconds();
                double b = setup.simulate(mode, s, reducers, full).seconds();
                assertEquals(b, a, b * 1e-6, mode + " S=" + s);
            }
        }
    }

    @Test
    void rootsThatAreNotAGroupAreSimulatedOneByOne() {
        SimSetup setup = setup("3x3x3", TreeChoice.SIX);
        RootSymmetry symmetry = setup.symmetry(2); // roots 0 and 13: 13 + 13 is not a root
        assertEquals(2, symmetry.simulatedRoots().length);
    }

    @Test
    void resultsAreDeterministic() {
        SimSetup setup = setup("4x4x4", TreeChoice.SIX);
        assertEquals(setup.simulate(SimMode.CAMDOOP, 0.3, 3), setup.simulate(SimMode.CAMDOOP, 0.3, 3));
        assertEquals(setup.simulate(SimMode.NOAGG, 1, 16), setup.simulate(SimMode.NOAGG, 1, 16));
    }
}
