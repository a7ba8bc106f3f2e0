package org.camdoop.shuffle.service.vertex;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.Text;
import org.camdoop.shuffle.aggregation.Advance;
import org.camdoop.shuffle.aggregation.ChunkQueueRun;
import org.camdoop.shuffle.aggregation.JobAggregationSpec;
import org.camdoop.shuffle.protocol.EndOfStream;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.records.RecordLayout;
import org.camdoop.shuffle.service.plan.ShufflePlan;
import org.camdoop.shuffle.service.plan.VertexPlan;
import org.camdoop.shuffle.testing.WordCounts;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.trees.TreeChoice;
import org.junit.jupiter.api.Test;

/**
 * A vertex whose merge blocks on a child keeps its partly filled chunk while its output still has chunks waiting to
 * leave (performance.md, P6): offered now, it would only queue behind them, and more records may fill it meanwhile.
 * Once the output says everything left ({@link VertexOutput#whenSent}), the chunk goes. With nothing waiting, it goes
 * at once, so a parent is never starved. One vertex, driven step by step on an executor the test runs.
 */
class HeldPartialChunkTest {

    /** The vertex's output: records what it accepts and says "unsent" while the test holds it so. */
    private static final class HoldingOutput implements VertexOutput {
        final List<byte[]> offered = new ArrayList<>();
        boolean unsent;
        Runnable whenSent;

        @Override
        public boolean offer(byte[] chunk, int length) {
            offered.add(Arrays.copyOf(chunk, length));
            return true;
        }

        @Override
        public void whenWritable(Runnable wake) {
            wake.run();
        }

        @Override
        public boolean hasUnsent() {
            return unsent;
        }

        @Override
        public void whenSent(Runnable wake) {
            this.whenSent = wake;
        }

        @Override
        public void end(EndOfStream end) {
        }

        @Override
        public void fail(String reason) {
            throw new AssertionError(reason);
        }
    }

    private final ArrayDeque<Runnable> queued = new ArrayDeque<>();
    private final HoldingOutput output = new HoldingOutput();

    @Test
    void aBlockedMergeHoldsItsPartialChunkUntilWhatWasQueuedLeft() throws Exception {
        output.unsent = true;
        Vertex vertex = blockedAfterMergingAToC();
        assertEquals(List.of(), output.offered, "a, b and c stay in the vertex while the output has chunks queued");
        assertNotNull(output.whenSent, "the vertex waits for the queued chunks to leave");

        output.unsent = false;
        output.whenSent.run();
        runQueued();
        assertEquals(1, output.offered.size(), "the held chunk went once the queue had drained");
        assertEquals(mergedAToC, keys(output.offered.get(0)));
        assertEquals(VertexState.MERGING, vertex.state(), "still merging: no child has ended");
    }

    @Test
    void withNothingQueuedTheParentGetsThePartialChunkAtOnce() throws Exception {
        blockedAfterMergingAToC();
        assertEquals(1, output.offered.size());
        assertEquals(mergedAToC, keys(output.offered.get(0)));
        assertNull(output.whenSent, "nothing to wait for");
    }

    /**
     * Each run the vertex submits says where it stands, for the vertex threads' order (VertexExecutor): its shuffle,
     * its distance from the root, and its frontier, the first bytes of the key it merged last ("c", where it blocked).
     */
    @Test
    void itsRunsSayHowFarThroughTheKeySpaceItCame() throws Exception {
        Vertex vertex = blockedAfterMergingAToC();
        vertex.onChunk(0, chunk("e"));
        VertexRun next = (VertexRun) queued.peek();
        assertEquals("job_1_0001 p0 a0", next.shuffle(), "its job, partition and reduce attempt");
        assertEquals(0, next.depth(), "the root");
        assertEquals((long) 'c' << 56, next.frontier(), "the word of the last key merged, c, zero-padded");
    }

    /**
     * A merge blocked on one child cannot move for a chunk on another: that chunk waits in the mailbox, with no run
     * (a run would only queue it and block again), and is merged in the run the awaited child's chunk causes.
     */
    @Test
    void aChunkOnAnotherChildWaitsForTheAwaitedOnesRun() throws Exception {
        Vertex vertex = blockedAfterMergingAToC();
        int offeredBefore = output.offered.size();
        vertex.onChunk(1, chunk("e"));
        assertEquals(0, queued.size(), "blocked on child 0: child 1's chunk causes no run");
        vertex.onChunk(0, chunk("e"));
        assertEquals(1, queued.size(), "child 0's chunk does");
        runQueued();
        List<String> merged = new ArrayList<>();
        for (byte[] offered : output.offered.subList(offeredBefore, output.offered.size())) {
            merged.addAll(keys(offered));
        }
        // Child 1's d, then (its e having arrived) every other child's d, until the last of those has nothing more;
        // had child 1's chunk been lost, the merge would have blocked on child 1 right after its d.
        int others = mergedAToC.size() - 2;
        assertEquals(java.util.Collections.nCopies(others, "d"), merged);
    }

    /** What the vertex merged before it blocked: a, one b per child but the first, c. */
    private final List<String> mergedAToC = new ArrayList<>();

    /**
     * The root vertex of a 2x2x2 torus (several children, no map output of its own), given "a c" by its first child
     * and "b d" by each other: it merges a, the b's and c, and then blocks on its first child, whose stream has not
     * ended.
     */
    private Vertex blockedAfterMergingAToC() throws Exception {
        TorusShape shape = TorusShape.parse("2x2x2");
        ShuffleSpec spec = new ShuffleSpec(99L, "job_1_0001", 0, 0, new Coord(0, 0, 0), ShuffleMode.NOAGG,
                TreeChoice.SIX, new TreeSet<>());
        ShufflePlan plan = new ShufflePlan(spec, FailureView.none(shape));
        VertexPlan root = plan.forServer(0).stream().filter(VertexPlan::isRoot).findFirst().orElseThrow();
        int inputs = root.inputs().size();
        assertTrue(inputs >= 2, "the root merges " + inputs + " children");
        JobAggregationSpec aggregation = JobAggregationSpec.fromJob(WordCounts.job(1)).withoutCombiner()
                .withBufferSizes(4096, 4096);
        Vertex vertex = new Vertex(new VertexContext(spec, root, aggregation, output, (child, urgent) -> { },
                queued::add, 512, System::nanoTime), "0,0,0");
        LocalInputs none = LocalInputs.none();
        vertex.start(none.runs(), none.attempts());
        vertex.onChunk(0, chunk("a", "c"));
        for (int i = 1; i < inputs; i++) {
            vertex.onChunk(i, chunk("b", "d"));
        }
        mergedAToC.add("a");
        mergedAToC.addAll(java.util.Collections.nCopies(inputs - 1, "b"));
        mergedAToC.add("c");
        runQueued();
        return vertex;
    }

    private void runQueued() {
        for (int turns = 0; !queued.isEmpty(); turns++) {
            assertTrue(turns < 1_000, "the vertex keeps rescheduling itself");
            queued.poll().run();
        }
    }

    private static InboundChunk chunk(String... keys) throws IOException {
        byte[] out = new byte[4096];
        int used = 0;
        for (String key : keys) {
            DataOutputBuffer k = new DataOutputBuffer();
            new Text(key).write(k);
            used = RecordLayout.writeRecord(out, used, k.getData(), 0, k.getLength(), new byte[] {1}, 0, 1);
        }
        return new InboundChunk(ByteBuffer.wrap(Arrays.copyOf(out, used)), () -> { });
    }

    private static List<String> keys(byte[] chunk) throws IOException {
        ChunkQueueRun run = new ChunkQueueRun("offered");
        run.offer(chunk, chunk.length);
        run.finish();
        List<String> keys = new ArrayList<>();
        while (run.advance() == Advance.RECORD) {
            keys.add(WordCounts.text(run.key().array(), run.key().offset(), run.key().length()));
        }
        return keys;
    }
}
