package org.camdoop.bench.shuffle;

import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import org.camdoop.workload.ReferenceResult;
import org.camdoop.workload.WorkloadManifest;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.torus.topology.Port;

/**
 * The least time any implementation of a mode could take: the busiest root's required inbound bytes over its inbound
 * capacity. Required bytes: camdoop, the partition's output fully combined over every map output except the root's
 * own (which it reads locally); noagg and direct, the partition's intermediate bytes not on the root. Capacity: the
 * root's links from distinct neighbours times the link rate on the torus (6 on a 3x3x3: six trees, or the shortest-path
 * tree's root children), one link in direct mode (the switch baseline). Reduce time is not included, as in the paper.
 *
 * @param busiestPartition the partition whose root needs the longest
 * @param bytes            the bytes that root must receive over links
 * @param inboundLinks     links into that root the bound assumes
 * @param seconds          bytes / (links x rate); NaN when links are unshaped
 */
public record LowerBound(int busiestPartition, long bytes, int inboundLinks, double seconds) {

    static LowerBound compute(ShuffleBenchOptions options, WorkloadManifest manifest) throws IOException {
        int links = inboundLinks(options, options.rootOf(0), -1);
        long worst = -1;
        int worstPartition = 0;
        for (int p = 0; p < options.reducers(); p++) {
            long bytes = requiredBytes(options, manifest, p, options.rootOf(p));
            if (bytes > worst) {
                worst = bytes;
                worstPartition = p;
            }
        }
        double rate = options.linkBytesPerSecond();
        return new LowerBound(worstPartition, worst, links, rate == 0 ? Double.NaN : worst / (links * rate));
    }

    /** The bytes {@code root} must receive over links to reduce {@code partition} (see the class comment). */
    static long requiredBytes(ShuffleBenchOptions options, WorkloadManifest manifest, int partition, int root)
            throws IOException {
        return options.mode() == ShuffleMode.CAMDOOP
                ? ReferenceResult.outputBytesWithout(manifest, partition, root)
                : manifest.intermediateBytes(partition) - manifest.servers().stream().filter(s -> s.server() == root)
                        .mapToLong(s -> s.partitions().get(partition).recordBytes()).sum();
    }

    /**
     * The links into {@code root} the bound assumes: one in direct mode, else its distinct neighbours other than
     * {@code dead} (-1: none dead).
     */
    static int inboundLinks(ShuffleBenchOptions options, int root, int dead) {
        if (options.mode() == ShuffleMode.DIRECT) {
            return 1;
        }
        Set<Integer> distinct = new HashSet<>();
        for (Port port : options.shape().links()) {
            int n = options.shape().neighbour(root, port);
            if (n != root && n != dead) {
                distinct.add(n);
            }
        }
        return Math.max(1, distinct.size());
    }
}
