package org.camdoop.sim;

/**
 * The paper's lower bounds for any switch-based shuffle (section 5.2): no on-path aggregation, so every root must
 * receive its partition's map output from every other server, {@code (N - 1) M / R} bytes, and every server must send
 * the parts of its map output that belong to other roots. A bound is the busiest server link's bytes over its rate;
 * with oversubscription also the busiest rack uplink's cross-rack bytes over the uplink rate. Full bisection bandwidth
 * otherwise, no reduce time, no protocol overhead: these are bounds, not predictions.
 *
 * @param oneGbps        one server link of the link rate (the paper's "Switch (1 Gbps)")
 * @param sixGbps        six teamed links per server ("Switch (6 Gbps)")
 * @param oversubscribed one link per server, racks of {@code serversPerRack} whose uplink carries
 *                       {@code serversPerRack x rate / oversubscription} ("Switch (1 Gbps, 1:4 oversub)")
 */
public record SwitchBounds(double oneGbps, double sixGbps, double oversubscribed) {

    /** Servers per rack in the paper's oversubscribed configuration. */
    public static final int SERVERS_PER_RACK = 40;
    /** The paper's oversubscription between racks, 1:4. */
    public static final int OVERSUBSCRIPTION = 4;

    /**
     * @param volumes            the workload (its trees count is not used)
     * @param roots              the server of each partition's root
     * @param linkBytesPerSecond the rate of one server link
     */
    public static SwitchBounds compute(ShuffleVolumes volumes, int[] roots, double linkBytesPerSecond) {
        int n = volumes.servers();
        double part = volumes.partitionBytesPerServer();
        boolean[] isRoot = new boolean[n];
        for (int r : roots) {
            isRoot[r] = true;
        }
        double inbound = (n - 1) * part;
        double outbound = 0;
        for (int s = 0; s < n; s++) {
            outbound = Math.max(outbound, (roots.length - (isRoot[s] ? 1 : 0)) * part);
        }
        double serverBytes = Math.max(inbound, outbound);
        double one = serverBytes / linkBytesPerSecond;
        double racks = rackBound(n, roots, part, linkBytesPerSecond);
        return new SwitchBounds(one, serverBytes / (6 * linkBytesPerSecond), Math.max(one, racks));
    }

    // Servers fill racks in index order; the last rack may be partial, its uplink scaled to its servers.
    private static double rackBound(int n, int[] roots, double part, double linkBytesPerSecond) {
        int racks = (n + SERVERS_PER_RACK - 1) / SERVERS_PER_RACK;
        int[] rootsIn = new int[racks];
        for (int r : roots) {
            rootsIn[r / SERVERS_PER_RACK]++;
        }
        double worst = 0;
        for (int k = 0; k < racks; k++) {
            int servers = Math.min(SERVERS_PER_RACK, n - k * SERVERS_PER_RACK);
            double uplink = servers * linkBytesPerSecond / OVERSUBSCRIPTION;
            double in = rootsIn[k] * (double) (n - servers) * part;
            double out = (roots.length - rootsIn[k]) * (double) servers * part;
            worst = Math.max(worst, Math.max(in, out) / uplink);
        }
        return worst;
    }
}
