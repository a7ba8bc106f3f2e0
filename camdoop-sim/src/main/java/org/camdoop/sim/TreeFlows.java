package org.camdoop.sim;

/**
 * The flows of a shuffle: one per tree edge, each carrying a known number of bytes over one link, and the pipeline
 * between them (a flow's children are the flows into its sending vertex in the same tree). Flows are numbered bottom
 * up: every child has a smaller number than its parent, so one ascending pass visits inputs before outputs.
 */
public final class TreeFlows {

    private final double[] volume;
    private final int[] link;
    private final int links;
    private final int[] parent;
    private final int[] childStart;
    private final int[] children;

    /**
     * @param volume     bytes each flow sends
     * @param link       the link each flow crosses, in [0, links)
     * @param links      number of links
     * @param parentFlow the flow each flow feeds (the edge out of its receiver), or -1 when it feeds a root
     */
    public TreeFlows(double[] volume, int[] link, int links, int[] parentFlow) {
        int n = volume.length;
        if (link.length != n || parentFlow.length != n) {
            throw new IllegalArgumentException("volume, link and parentFlow must have one entry per flow");
        }
        this.volume = volume.clone();
        this.link = link.clone();
        this.links = links;
        this.parent = parentFlow.clone();
        this.childStart = new int[n + 1];
        for (int f = 0; f < n; f++) {
            if (parent[f] >= 0) {
                if (parent[f] <= f || parent[f] >= n) {
                    throw new IllegalArgumentException("flow " + f + " feeds flow " + parent[f] + ": not numbered bottom up");
                }
                childStart[parent[f] + 1]++;
            }
            if (!(volume[f] > 0)) {
                throw new IllegalArgumentException("flow " + f + " has no bytes to send");
            }
        }
        for (int f = 0; f < n; f++) {
            childStart[f + 1] += childStart[f];
        }
        this.children = new int[childStart[n]];
        int[] fill = java.util.Arrays.copyOf(childStart, n);
        for (int f = 0; f < n; f++) {
            if (parent[f] >= 0) {
                children[fill[parent[f]]++] = f;
            }
        }
    }

    public int count() {
        return volume.length;
    }

    public int links() {
        return links;
    }

    public double volume(int flow) {
        return volume[flow];
    }

    public int link(int flow) {
        return link[flow];
    }

    /** The flow this one feeds, or -1 when it ends at a root. */
    public int parent(int flow) {
        return parent[flow];
    }

    public int childCount(int flow) {
        return childStart[flow + 1] - childStart[flow];
    }

    public int child(int flow, int i) {
        return children[childStart[flow] + i];
    }

    /** A copy of the link of every flow, for {@link FluidNetwork}. */
    public int[] linkArray() {
        return link.clone();
    }

    /** Bytes all flows into roots carry: what the roots receive over links. */
    public double bytesIntoRoots() {
        double sum = 0;
        for (int f = 0; f < count(); f++) {
            if (parent[f] < 0) {
                sum += volume[f];
            }
        }
        return sum;
    }

    /** The most bytes any link must carry: with the link rate, a lower bound on the simulated time. */
    public double busiestLinkBytes() {
        double[] perLink = new double[links];
        double max = 0;
        for (int f = 0; f < count(); f++) {
            perLink[link[f]] += volume[f];
            max = Math.max(max, perLink[link[f]]);
        }
        return max;
    }
}
