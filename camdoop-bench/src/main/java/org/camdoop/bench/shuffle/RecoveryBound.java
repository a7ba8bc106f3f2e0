package org.camdoop.bench.shuffle;

import java.io.IOException;
import java.util.Optional;
import org.camdoop.workload.WorkloadManifest;

/**
 * The least time a run of {@code bench failure} could take, whatever the recovery: the time before the crash, plus the
 * bytes the reducer still lacked then, sent at full rate over the links into its root that survive the crash. Not in
 * it: detecting the failure (the failure timeout), setting up again, and resending what the trees had merged beyond
 * what the reducer held. So it is the network's floor for a recovery that resends only what the reducer had not
 * received, as the paper's per-vertex recovery nearly does.
 *
 * <ul>
 *   <li>A surviving root (the victim is a neighbour or another server): {@link LowerBound}'s bytes for it, times the
 *   share of the reduce input not yet delivered at the crash, over its distinct neighbours other than the victim
 *   (five when the victim was one of them).</li>
 *   <li>A crashed root: the next reduce attempt runs on the heir and receives everything again, over the heir's
 *   neighbours other than the victim.</li>
 * </ul>
 *
 * @param requiredBytes  bytes the (new) root must receive over links for the whole partition
 * @param liveLinks      links into it that survive the crash
 * @param rootCrashes    whether the victim is the root (nothing delivered before the crash counts)
 * @param bytesPerSecond the link rate
 */
record RecoveryBound(long requiredBytes, int liveLinks, boolean rootCrashes, double bytesPerSecond) {

    /**
     * The bound of partition 0 at R = 1 on shaped links; empty otherwise (with many roots the busiest one after the
     * crash is not known in advance).
     */
    static Optional<RecoveryBound> of(ShuffleBenchOptions o, WorkloadManifest manifest, boolean rootCrashes,
            int victim, int heir) throws IOException {
        if (o.reducers() != 1 || o.linkBytesPerSecond() == 0) {
            return Optional.empty();
        }
        int root = rootCrashes ? heir : o.rootOf(0);
        return Optional.of(new RecoveryBound(LowerBound.requiredBytes(o, manifest, 0, root),
                LowerBound.inboundLinks(o, root, victim), rootCrashes, o.linkBytesPerSecond()));
    }

    /**
     * @param crashSeconds     when the victim crashed, from the start of the shuffle
     * @param deliveredAtCrash bytes the reducer had received then
     * @param deliveredInAll   bytes it received by the end (of every generation)
     */
    double seconds(double crashSeconds, long deliveredAtCrash, long deliveredInAll) {
        double missing = rootCrashes || deliveredInAll <= 0 ? 1
                : Math.max(0, 1 - (double) deliveredAtCrash / deliveredInAll);
        return crashSeconds + missing * requiredBytes / (liveLinks * bytesPerSecond);
    }
}
