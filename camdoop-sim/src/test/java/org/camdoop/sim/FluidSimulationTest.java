package org.camdoop.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class FluidSimulationTest {

    private static final double GBPS = 1e9 / 8;
    private static final double B = 1_000_000;

    private static double seconds(double[] volume, int[] link, int links, int[] parent) {
        return new FluidSimulation(new TreeFlows(volume, link, links, parent), GBPS).run().seconds();
    }

    @Test
    void oneFlowOverOneLinkTakesBytesOverRate() {
        assertEquals(B * 8 / 1e9, seconds(new double[] {B}, new int[] {0}, 1, new int[] {-1}), 1e-12);
    }

    @Test
    void twoFlowsSharingALinkTakeTwiceAsLong() {
        assertEquals(2 * B * 8 / 1e9, seconds(new double[] {B, B}, new int[] {0, 0}, 1, new int[] {-1, -1}), 1e-12);
    }

    @Test
    void twoFlowsOnTheirOwnLinksRunSideBySide() {
        assertEquals(B * 8 / 1e9, seconds(new double[] {B, B}, new int[] {0, 1}, 2, new int[] {-1, -1}), 1e-12);
    }

    @Test
    void aShortFlowLeavesTheLinkToTheLongOne() {
        // Half the rate each until the short one ends at 2 * B/2 / rate; then the rest of the long one alone.
        assertEquals((B + B) * 8 / 1e9, seconds(new double[] {B / 2, 1.5 * B}, new int[] {0, 0}, 1,
                new int[] {-1, -1}), 1e-9);
    }

    @Test
    void aChainOfEqualFlowsIsAPipelineNotAStoreAndForward() {
        // leaf -> middle -> root over three links, each carrying B: pipelined, the whole chain takes one B.
        assertEquals(B * 8 / 1e9, seconds(new double[] {B, B, B}, new int[] {0, 1, 2}, 3, new int[] {1, 2, -1}),
                1e-9);
    }

    @Test
    void aVertexCannotOutrunItsSlowInput() {
        // The child (B) shares its link with a flow of B/2: half rate until B/rate, then full rate to 1.5 B/rate.
        // The parent (1.5 B, a link of its own) may send no larger a fraction than the child has delivered: 0.75 B by
        // B/rate, then the rest at its own link's rate, done at 1.75 B/rate (1.5 B/rate if it could run ahead).
        double t = seconds(new double[] {B, B / 2, 1.5 * B}, new int[] {0, 0, 1}, 2, new int[] {2, -1, -1});
        assertEquals(1.75 * B * 8 / 1e9, t, 1e-9);
    }

    @Test
    void waterFillingGivesCappedFlowsTheirCapAndTheRestToOthers() {
        FluidNetwork net = new FluidNetwork(1, 100, new int[] {0, 0, 0});
        double[] rates = new double[3];
        net.allocate(new boolean[] {true, true, true}, new double[] {10, Double.POSITIVE_INFINITY, 80}, rates);
        assertArrayEquals(new double[] {10, 45, 45}, rates, 1e-12);
        net.allocate(new boolean[] {true, false, true}, new double[] {10, 5, 20}, rates);
        assertArrayEquals(new double[] {10, 0, 20}, rates, 1e-12);
    }
}
