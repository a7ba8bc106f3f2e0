package org.camdoop.sim;

import java.util.Arrays;

/**
 * Links of one capacity shared max-min fairly by the flows crossing them. Every flow here crosses exactly one directed
 * link (a tree edge on a failure-free torus is one hop), so max-min fairness decomposes into independent water-filling
 * per link: each flow gets {@code min(cap, level)}, with the level chosen so the link is full unless every flow is
 * capped below its share.
 */
public final class FluidNetwork {

    private final double capacity;
    private final int[] flowLink;
    // CSR: the flows crossing link l are linkFlows[linkStart[l] .. linkStart[l + 1])
    private final int[] linkStart;
    private final int[] linkFlows;
    private final double[] scratch;

    /**
     * @param links         number of directed links
     * @param capacity      bytes per second of every link
     * @param flowLink      the link each flow crosses
     */
    public FluidNetwork(int links, double capacity, int[] flowLink) {
        if (!(capacity > 0)) {
            throw new IllegalArgumentException("link capacity must be > 0, got " + capacity);
        }
        this.capacity = capacity;
        this.flowLink = flowLink.clone();
        this.linkStart = new int[links + 1];
        for (int link : flowLink) {
            if (link < 0 || link >= links) {
                throw new IllegalArgumentException("flow on link " + link + " outside [0, " + links + ")");
            }
            linkStart[link + 1]++;
        }
        int widest = 0;
        for (int l = 0; l < links; l++) {
            widest = Math.max(widest, linkStart[l + 1]);
            linkStart[l + 1] += linkStart[l];
        }
        this.linkFlows = new int[flowLink.length];
        int[] fill = Arrays.copyOf(linkStart, links);
        for (int f = 0; f < flowLink.length; f++) {
            linkFlows[fill[flowLink[f]]++] = f;
        }
        this.scratch = new double[widest];
    }

    public double capacity() {
        return capacity;
    }

    public int links() {
        return linkStart.length - 1;
    }

    public int flows() {
        return flowLink.length;
    }

    public int linkOf(int flow) {
        return flowLink[flow];
    }

    /**
     * Max-min fair rates: active flows get {@code min(caps[f], level of their link)}, inactive ones 0.
     *
     * @param active which flows still have bytes to send
     * @param caps   the most each flow can use (bytes per second; {@code Double.POSITIVE_INFINITY} for no limit)
     * @param rates  written: the rate of every flow
     */
    public void allocate(boolean[] active, double[] caps, double[] rates) {
        for (int l = 0; l < links(); l++) {
            int n = 0;
            boolean capped = false;
            for (int i = linkStart[l]; i < linkStart[l + 1]; i++) {
                int f = linkFlows[i];
                if (active[f]) {
                    scratch[n++] = caps[f];
                    capped |= caps[f] != Double.POSITIVE_INFINITY;
                }
            }
            if (n == 0) {
                continue;
            }
            double level = capped ? waterLevel(n) : capacity / n;
            for (int i = linkStart[l]; i < linkStart[l + 1]; i++) {
                int f = linkFlows[i];
                rates[f] = active[f] ? Math.min(caps[f], level) : 0;
            }
        }
    }

    /** The level at which the first {@code n} caps in scratch, each cut to the level, fill the link. */
    private double waterLevel(int n) {
        Arrays.sort(scratch, 0, n);
        double remaining = capacity;
        for (int i = 0; i < n; i++) {
            double share = remaining / (n - i);
            if (scratch[i] >= share) {
                return share;
            }
            remaining -= scratch[i];
        }
        return Double.POSITIVE_INFINITY; // every flow is capped below its share: the link is not the bottleneck
    }
}
