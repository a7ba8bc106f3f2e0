package org.camdoop.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SwitchBoundsTest {

    private static final double M = 2e6;
    private static final double RATE = 1e9 / 8;

    @Test
    void oneReducerReceivesEveryOtherServersMapOutput() {
        ShuffleVolumes v = new ShuffleVolumes(512, M, 0, 1, 6);
        SwitchBounds b = SwitchBounds.compute(v, new int[] {0}, RATE);
        assertEquals(511 * M / RATE, b.oneGbps(), 1e-12);
        assertEquals(511 * M / RATE / 6, b.sixGbps(), 1e-12);
        // The root's rack uplink (10 Gbit/s) carries 472 servers' data: less than the root's own link, so no change.
        assertEquals(b.oneGbps(), b.oversubscribed(), 1e-12);
    }

    @Test
    void allToAllIsLimitedByTheRackUplinks() {
        int n = 512;
        int[] roots = RootSymmetry.roots(org.camdoop.torus.topology.TorusShape.parse("8x8x8"), n);
        SwitchBounds b = SwitchBounds.compute(new ShuffleVolumes(n, M, 1, n, 6), roots, RATE);
        double part = M / n;
        assertEquals(511 * part / RATE, b.oneGbps(), 1e-12);
        // 512 = 12 racks of 40 and one of 32. A full rack's 40 roots each receive from 472 servers outside over
        // 40 x 1 Gbit/s / 4; the last rack's 32 roots from 480 servers over 32 x 1 Gbit/s / 4, the busier uplink.
        assertEquals(32 * 480 * part / (8 * RATE), b.oversubscribed(), 1e-12);
    }

    @Test
    void volumesRealiseS() {
        ShuffleVolumes zero = new ShuffleVolumes(27, M, 0, 1, 6);
        assertEquals(M, zero.outputBytes(), 1e-6);
        assertEquals(M / 6, zero.combinedStripe(27), 1e-6);
        ShuffleVolumes one = new ShuffleVolumes(27, M, 1, 1, 6);
        assertEquals(27 * M, one.outputBytes(), 1e-6);
        assertEquals(one.mergedStripe(5), one.combinedStripe(5), 1e-6);
        ShuffleVolumes half = new ShuffleVolumes(27, M, 0.5, 3, 6);
        assertEquals(27 * M * 0.5, half.outputBytes(), 1e-3);
    }
}
