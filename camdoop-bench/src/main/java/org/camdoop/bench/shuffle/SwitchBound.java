package org.camdoop.bench.shuffle;

import org.camdoop.workload.WorkloadManifest;

/**
 * The paper's switch lower bounds (section 5.2, "Switch (1 Gbps)" and "Switch (6 Gbps)"): the least time any
 * switch-based shuffle could take with full bisection bandwidth and one, or six teamed, links per server at the torus
 * link rate. A switch moves every intermediate byte whose reduce task runs on another server exactly once, out of its
 * map's server and into its root, with no aggregation on the way (there is no way). The busiest switch port decides:
 * for each server the larger of the bytes it must send and the bytes it must receive. Independent of S, as in the
 * paper's figures, and, like the paper's, without reduce time.
 *
 * @param busiestServer   the server whose switch port is busiest
 * @param busiestBytes    the bytes through that port in its busier direction
 * @param oneLinkSeconds  busiest bytes over one link ("Switch 1 Gbps"); NaN when links are unshaped
 * @param sixLinksSeconds busiest bytes over six links ("Switch 6 Gbps"); NaN when links are unshaped
 */
public record SwitchBound(int busiestServer, long busiestBytes, double oneLinkSeconds, double sixLinksSeconds) {

    /** Links teamed per server in the paper's "Switch (6 Gbps)": as many as a CamCube server has. */
    public static final int TEAMED_LINKS = 6;

    static SwitchBound compute(ShuffleBenchOptions options, WorkloadManifest manifest) {
        int servers = manifest.servers().size();
        long[] out = new long[servers];
        long[] in = new long[servers];
        for (int s = 0; s < servers; s++) {
            for (int p = 0; p < manifest.partitions(); p++) {
                int root = options.rootOf(p);
                if (root != s) {
                    long bytes = manifest.servers().get(s).partitions().get(p).recordBytes();
                    out[s] += bytes;
                    in[root] += bytes;
                }
            }
        }
        int busiest = 0;
        for (int s = 1; s < servers; s++) {
            if (Math.max(out[s], in[s]) > Math.max(out[busiest], in[busiest])) {
                busiest = s;
            }
        }
        long bytes = Math.max(out[busiest], in[busiest]);
        double rate = options.linkBytesPerSecond();
        return rate == 0
                ? new SwitchBound(busiest, bytes, Double.NaN, Double.NaN)
                : new SwitchBound(busiest, bytes, bytes / rate, bytes / (TEAMED_LINKS * rate));
    }
}
