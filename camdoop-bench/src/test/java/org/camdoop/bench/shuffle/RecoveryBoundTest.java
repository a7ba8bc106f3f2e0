package org.camdoop.bench.shuffle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.torus.topology.Port;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.trees.TreeChoice;
import org.camdoop.workload.ReferenceResult;
import org.camdoop.workload.SyntheticWorkload;
import org.camdoop.workload.WorkloadManifest;
import org.camdoop.workload.WorkloadSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The network's floor under a failure run of {@code bench failure}: which links survive, which bytes remain. */
class RecoveryBoundTest {

    private static final TorusShape SHAPE = TorusShape.parse("3x3x3");

    @TempDir
    Path dir;

    private static ShuffleBenchOptions options(ShuffleMode mode, int reducers, double mbps) {
        return new ShuffleBenchOptions(SHAPE, 1, reducers, mode, TreeChoice.SIX, 0.01, mbps, 3);
    }

    /** The workload without {@code victim}'s map output, as the failure bench runs it. */
    private WorkloadManifest without(ShuffleBenchOptions o, int victim) throws Exception {
        WorkloadManifest all = SyntheticWorkload.generate(WorkloadSpec.sRatio(o.servers(), o.ratioS(),
                o.bytesPerServer(), o.reducers(), o.seed()), dir).manifest();
        return new WorkloadManifest(all.spec(), all.servers().stream().filter(s -> s.server() != victim).toList());
    }

    @Test
    void aDeadNeighbourOfTheRootLeavesFiveLinksForWhatTheReducerLacked() throws Exception {
        ShuffleBenchOptions o = options(ShuffleMode.CAMDOOP, 1, 50);
        int root = o.rootOf(0);
        int victim = SHAPE.neighbour(root, Port.PLUS_X);
        WorkloadManifest manifest = without(o, victim);
        RecoveryBound bound = RecoveryBound.of(o, manifest, false, victim, -1).orElseThrow();

        long bytes = ReferenceResult.outputBytesWithout(manifest, 0, root);
        assertEquals(bytes, bound.requiredBytes());
        assertEquals(5, bound.liveLinks());
        double rate = 50e6 / 8;
        assertEquals(1.0 + 0.25 * bytes / (5 * rate), bound.seconds(1.0, 300, 400), 1e-9);
        assertEquals(2.0, bound.seconds(2.0, 400, 400), 1e-9, "everything delivered: only the time before it");
    }

    @Test
    void aServerAwayFromTheRootLeavesAllSixLinks() throws Exception {
        ShuffleBenchOptions o = options(ShuffleMode.NOAGG, 1, 50);
        int root = o.rootOf(0);
        int victim = SHAPE.index(1, 1, 1);
        WorkloadManifest manifest = without(o, victim);
        RecoveryBound bound = RecoveryBound.of(o, manifest, false, victim, -1).orElseThrow();

        assertEquals(6, bound.liveLinks());
        // noagg: every record not on the root crosses a link into it (the root's own are read locally).
        long onRoot = manifest.servers().stream().filter(s -> s.server() == root)
                .mapToLong(s -> s.partitions().get(0).recordBytes()).sum();
        assertTrue(onRoot > 0);
        assertEquals(manifest.intermediateBytes(0) - onRoot, bound.requiredBytes());
    }

    @Test
    void aCrashedRootIsReplacedByItsHeirThatReceivesEverythingAgainOverItsLiveLinks() throws Exception {
        ShuffleBenchOptions o = options(ShuffleMode.CAMDOOP, 1, 100);
        int root = o.rootOf(0);
        int heir = SHAPE.neighbour(root, Port.PLUS_X);
        WorkloadManifest manifest = without(o, root);
        RecoveryBound bound = RecoveryBound.of(o, manifest, true, root, heir).orElseThrow();

        long bytes = ReferenceResult.outputBytesWithout(manifest, 0, heir);
        assertEquals(bytes, bound.requiredBytes());
        assertEquals(5, bound.liveLinks(), "the heir's link to the dead root is gone");
        assertEquals(0.5 + bytes / (5 * 100e6 / 8), bound.seconds(0.5, 999, 1000), 1e-9,
                "what the dead reducer had received does not count");
    }

    @Test
    void directModeHasOneLinkWhateverFails() throws Exception {
        ShuffleBenchOptions o = options(ShuffleMode.DIRECT, 1, 50);
        int victim = SHAPE.neighbour(o.rootOf(0), Port.PLUS_X);
        assertEquals(1, RecoveryBound.of(o, without(o, victim), false, victim, -1).orElseThrow().liveLinks());
    }

    @Test
    void manyRootsOrUnshapedLinksHaveNoBound() throws Exception {
        ShuffleBenchOptions many = options(ShuffleMode.CAMDOOP, 27, 50);
        assertTrue(RecoveryBound.of(many, without(many, 1), false, 1, -1).isEmpty());
        ShuffleBenchOptions unshaped = options(ShuffleMode.CAMDOOP, 1, 0);
        assertTrue(RecoveryBound.of(unshaped, without(unshaped, 1), false, 1, -1).isEmpty());
    }
}
