package org.camdoop.sim;

/**
 * The bytes of the paper's synthetic S-ratio workload (docs/workloads.md), in closed form. Every server holds
 * {@code M} bytes of distinct keys: {@code C} bytes of keys shared by all servers and {@code M - C} of its own, with
 * {@code C = N M (1 - S) / (N - 1)}; S = 0 stands for 1/N. Keys are hash-partitioned evenly over R reducers and each
 * partition is striped evenly over the T trees, so every quantity below is per reducer and per tree.
 *
 * @param servers        N
 * @param bytesPerServer M, map output per server
 * @param ratioS         requested S in [0, 1]; values below 1/N are raised to 1/N
 * @param reducers       R
 * @param trees          T (at least 1)
 */
public record ShuffleVolumes(int servers, double bytesPerServer, double ratioS, int reducers, int trees) {

    public ShuffleVolumes {
        if (servers < 1 || reducers < 1 || trees < 1) {
            throw new IllegalArgumentException("servers, reducers and trees must be >= 1");
        }
        if (!(ratioS >= 0 && ratioS <= 1)) {
            throw new IllegalArgumentException("S must be in [0, 1], got " + ratioS);
        }
    }

    /** S as realised: at least 1/N. */
    public double effectiveS() {
        return Math.max(ratioS, 1.0 / servers);
    }

    /** C: bytes of keys every server holds. */
    public double sharedBytes() {
        return servers == 1 ? bytesPerServer : servers * bytesPerServer * (1 - effectiveS()) / (servers - 1);
    }

    /** M - C: bytes of keys only this server holds. */
    public double uniqueBytes() {
        return bytesPerServer - sharedBytes();
    }

    /** One stripe of one partition: the share of any byte count that one tree of one reducer carries. */
    private double stripe(double bytes) {
        return bytes / ((double) reducers * trees);
    }

    /** What a camdoop vertex sends up one tree: the union of its subtree's keys ({@code k} servers), combined. */
    public double combinedStripe(int subtreeServers) {
        return stripe(Math.min(sharedBytes() + subtreeServers * uniqueBytes(), subtreeServers * bytesPerServer));
    }

    /** What a noagg vertex sends up one tree: its subtree's map output for the stripe, merged but not combined. */
    public double mergedStripe(int subtreeServers) {
        return stripe(subtreeServers * bytesPerServer);
    }

    /** The job's output, all partitions: {@code N M S}. */
    public double outputBytes() {
        return sharedBytes() + servers * uniqueBytes();
    }

    /** One partition's intermediate bytes held by one server: {@code M / R}. */
    public double partitionBytesPerServer() {
        return bytesPerServer / reducers;
    }
}
