package org.camdoop.shuffle.aggregation;

import org.camdoop.shuffle.records.RawBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.io.RawComparator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Inputs that arrive chunk by chunk in adversarial interleavings: the output must equal the all-at-once merge, and no
 * key may be emitted before every input has shown a key at least as large (strictly larger for a combined group).
 */
class BlockedRuleTest {

    /** Records the largest key each input has shown, and whether it ended. */
    private static final class WatchedRun implements SortedRun {
        private final SortedRun inner;
        byte[] lastShown;
        boolean ended;

        WatchedRun(SortedRun inner) {
            this.inner = inner;
        }

        @Override
        public Advance advance() throws IOException {
            Advance a = inner.advance();
            if (a == Advance.RECORD) {
                lastShown = inner.key().copy();
            } else if (a == Advance.END) {
                ended = true;
            }
            return a;
        }

        @Override
        public RawBytes key() {
            return inner.key();
        }

        @Override
        public RawBytes value() {
            return inner.value();
        }

        @Override
        public void close() throws IOException {
            inner.close();
        }
    }

    /** Splits a sorted input into chunks of 1 to 4 records. */
    private static List<byte[]> chunks(List<Records.Raw> sorted, Random rnd) {
        List<byte[]> chunks = new ArrayList<>();
        for (int i = 0; i < sorted.size(); ) {
            int n = Math.min(sorted.size() - i, 1 + rnd.nextInt(4));
            chunks.add(Records.layout(sorted.subList(i, i + n)));
            i += n;
        }
        return chunks;
    }

    private static void assertEmittedSafely(List<WatchedRun> inputs, RawBytes key, RawComparator<Object> cmp,
            boolean strictly) {
        for (int i = 0; i < inputs.size(); i++) {
            WatchedRun in = inputs.get(i);
            if (in.ended) {
                continue;
            }
            assertTrue(in.lastShown != null, "emitted before input " + i + " showed any key");
            int c = cmp.compare(in.lastShown, 0, in.lastShown.length, key.array(), key.offset(), key.length());
            assertTrue(strictly ? c > 0 : c >= 0, "emitted a key input " + i + " had not yet moved "
                    + (strictly ? "past" : "up to"));
        }
    }

    /**
     * Drives the given stage (merger alone, or merger plus combiner) with chunks arriving one at a time: whenever the
     * stage blocks, a chunk goes to a random input that still has some (rarely the blocked one), or the stream of a
     * random drained input is finished.
     */
    static List<Records.Raw> incremental(JobAggregationSpec spec, List<List<Records.Raw>> inputs, long seed,
            boolean combine) throws IOException {
        Random rnd = new Random(seed);
        List<ChunkQueueRun> queues = new ArrayList<>();
        List<WatchedRun> watched = new ArrayList<>();
        List<List<byte[]>> pending = new ArrayList<>();
        for (int i = 0; i < inputs.size(); i++) {
            ChunkQueueRun q = new ChunkQueueRun("input " + i);
            queues.add(q);
            watched.add(new WatchedRun(q));
            pending.add(new ArrayList<>(chunks(Records.sorted(inputs.get(i), spec.sortComparator()), rnd)));
        }
        KWayMerger merger = new KWayMerger(watched, spec.sortComparator(), MergeStrategy.LOSER_TREE,
                new AggregationCounters());
        SortedRun stage = combine ? AggregationPipeline.combined(merger, spec) : merger;
        boolean[] finished = new boolean[inputs.size()];
        List<Records.Raw> out = new ArrayList<>();
        int blocks = 0;
        long frontier = 0;
        assertEquals(0, merger.frontier(), "no key yet");
        while (true) {
            Advance a = stage.advance();
            if (a == Advance.END) {
                break;
            }
            assertTrue(Long.compareUnsigned(merger.frontier(), frontier) >= 0, "the frontier went back");
            frontier = merger.frontier();
            if (a == Advance.RECORD && !combine) {
                assertEquals(firstWordOfText(stage.key()), frontier, "the key returned last");
            }
            if (a == Advance.RECORD) {
                assertEmittedSafely(watched, stage.key(), spec.sortComparator(), combine);
                out.add(new Records.Raw(stage.key().copy(), stage.value().copy()));
                continue;
            }
            blocks++;
            int blocked = merger.blockedInput();
            assertTrue(blocked >= 0 && !finished[blocked], "blocked on a live input");
            List<Integer> candidates = new ArrayList<>();
            for (int i = 0; i < inputs.size(); i++) {
                if (!finished[i] && (i != blocked || rnd.nextInt(4) == 0)) {
                    candidates.add(i);
                }
            }
            int target = candidates.isEmpty() ? blocked : candidates.get(rnd.nextInt(candidates.size()));
            if (pending.get(target).isEmpty()) {
                queues.get(target).finish();
                finished[target] = true;
            } else {
                byte[] chunk = pending.get(target).remove(0);
                queues.get(target).offer(chunk, chunk.length);
            }
        }
        assertTrue(blocks > inputs.size(), "the schedule really made the merge wait: " + blocks);
        return out;
    }

    /** A serialized Text's first eight bytes after its length, big-endian, zero-padded: its place in the key space. */
    private static long firstWordOfText(RawBytes key) {
        int body = key.offset() + org.apache.hadoop.io.WritableUtils.decodeVIntSize(key.array()[key.offset()]);
        long word = 0;
        for (int i = 0; i < Long.BYTES; i++) {
            int at = body + i;
            word = (word << 8) | (at < key.offset() + key.length() ? key.array()[at] & 0xFF : 0);
        }
        return word;
    }

    private static void assertSameRecords(List<Records.Raw> expected, List<Records.Raw> actual) {
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            assertTrue(Arrays.equals(expected.get(i).key(), actual.get(i).key())
                    && Arrays.equals(expected.get(i).value(), actual.get(i).value()), "record " + i);
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void mergeOnlyIncrementalEqualsAllAtOnce(long seed) throws IOException {
        JobAggregationSpec spec = JobAggregationSpec.fromJob(TestJobs.textInt());
        List<List<Records.Raw>> inputs = Workloads.zipf(new Random(seed), 5, 150, 120, 0.99);
        inputs.add(List.of());
        List<Records.Raw> expected = MergeCombineTest.aggregate(spec, inputs, MergeStrategy.BINARY_HEAP);
        assertSameRecords(expected, incremental(spec, inputs, seed * 31, false));
    }

    @ParameterizedTest
    @ValueSource(longs = {6, 7, 8, 9, 10})
    void combinedIncrementalEqualsAllAtOnce(long seed) throws IOException {
        JobAggregationSpec spec = JobAggregationSpec.fromJob(TestJobs.textIntNewCombiner()).withBufferSizes(256, 128);
        List<List<Records.Raw>> inputs = Workloads.sRatio(new Random(seed), 4, 120, 0.5);
        inputs.addAll(Workloads.zipf(new Random(seed), 2, 150, 100, 0.99));
        List<Records.Raw> expected = MergeCombineTest.aggregate(spec, inputs, MergeStrategy.LOSER_TREE);
        List<Records.Raw> actual = incremental(spec, inputs, seed * 17, true);
        assertSameRecords(expected, actual);
        Reference.assertCombined(inputs, actual, spec.sortComparator(), false);
    }

    /**
     * Single-record groups skip the combiner also when batches are cut short by blocking: a group is still only
     * combined once complete, so its size, and whether it passes through, do not depend on the arrival order.
     */
    @ParameterizedTest
    @ValueSource(longs = {11, 12, 13, 14})
    void singletonPassThroughHoldsWhenInputsArriveChunkByChunk(long seed) throws IOException {
        JobAggregationSpec spec = JobAggregationSpec.fromJob(seed % 2 == 0 ? TestJobs.textIntNewMarkingCombiner()
                : TestJobs.textIntOldMarkingCombiner()).withBufferSizes(256, 128);
        List<List<Records.Raw>> inputs = Workloads.sRatio(new Random(seed), 4, 120, 0.5);
        inputs.addAll(Workloads.zipf(new Random(seed), 2, 150, 100, 0.99));
        List<Records.Raw> actual = incremental(spec, inputs, seed * 17, true);
        SingletonPassThroughTest.assertRule(inputs, actual);
        assertSameRecords(MergeCombineTest.aggregate(spec, inputs, MergeStrategy.LOSER_TREE), actual);
    }

    @Test
    void pipelineReportsWhichInputToWaitForAndFlushesWhatItHas() throws IOException {
        JobAggregationSpec spec = JobAggregationSpec.fromJob(TestJobs.textIntOldCombiner());
        List<Records.Raw> a = Records.sorted(Workloads.sRatio(new Random(1), 1, 10, 0).get(0), spec.sortComparator());
        ChunkQueueRun first = new ChunkQueueRun("first");
        ChunkQueueRun second = new ChunkQueueRun("second");
        Records.CollectingSink sink = new Records.CollectingSink();
        try (AggregationPipeline pipeline = AggregationPipeline.open(spec, List.of(first, second), sink)) {
            byte[] all = Records.layout(a);
            first.offer(all, all.length);
            first.finish();
            assertEquals(PumpOutcome.BLOCKED, pipeline.pump(100));
            assertEquals(1, pipeline.blockedInput(), "waits for the input that has shown nothing");
            assertEquals(0, pipeline.counters().recordsOut(), "nothing may be emitted yet");
            byte[] half = Records.layout(a.subList(0, 5));
            second.offer(half, half.length);
            assertEquals(PumpOutcome.BLOCKED, pipeline.pump(100));
            assertEquals(1, pipeline.blockedInput());
            assertEquals(4, Records.parseChunks(sink.chunks).size(),
                    "the four keys both inputs have moved past were combined and flushed; the fifth may still grow");
            byte[] rest = Records.layout(a.subList(5, 10));
            second.offer(rest, rest.length);
            second.finish();
            assertEquals(PumpOutcome.BUDGET_USED, pipeline.pump(2));
            assertEquals(PumpOutcome.FINISHED, pipeline.pump(100));
            assertEquals(PumpOutcome.FINISHED, pipeline.pump(100));
            List<Records.Raw> out = Records.parseChunks(sink.chunks);
            Reference.assertCombined(List.of(a, a), out, spec.sortComparator(), false);
            assertEquals(20, pipeline.counters().recordsIn());
            assertEquals(10, pipeline.counters().recordsOut());
            assertEquals(10, pipeline.counters().recordsCombined());
        }
    }
}
