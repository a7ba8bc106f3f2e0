package org.camdoop.shuffle.service.vertex;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.Text;
import org.camdoop.shuffle.aggregation.Advance;
import org.camdoop.shuffle.aggregation.ChunkQueueRun;
import org.camdoop.shuffle.testing.TextChunks;
import org.camdoop.shuffle.testing.WordCounts;
import org.junit.jupiter.api.Test;

/**
 * A root input that a tree repair may rebind hands the merge whole key groups only: whatever chunk boundaries the
 * stream has, at every moment the run holds every record up to the input's last key and none beyond, so a replacing
 * stream that resumes after that key completes it with each record exactly once. And each chunk is counted once, so the
 * vertex releases transport buffers as before.
 */
class WholeGroupInputTest {

    private static final RawComparator<Object> TEXT = TextChunks.ORDER;

    private static ByteBuffer chunk(List<String> records) {
        return ByteBuffer.wrap(TextChunks.chunk(records));
    }

    /** Every record the run has been given, drained, as "key=value". */
    private static List<String> drain(ChunkQueueRun run) throws IOException {
        List<String> got = new ArrayList<>();
        while (run.advance() == Advance.RECORD) {
            got.add(WordCounts.text(run.key().array(), run.key().offset(), run.key().length()) + "="
                    + new String(run.value().array(), run.value().offset(), run.value().length(),
                    java.nio.charset.StandardCharsets.US_ASCII));
        }
        return got;
    }

    private static String keyOf(String record) {
        return record.substring(0, record.indexOf('='));
    }

    @Test
    void theRunHoldsWholeGroupsUpToTheLastKeyAndNothingBeyond() throws IOException {
        WholeGroupInput in = new WholeGroupInput(TEXT, 1 << 20, "test");
        ChunkQueueRun run = new ChunkQueueRun("test");
        in.offer(chunk(List.of("a=1", "b=1", "b=2")), run);
        assertEquals(List.of("a=1"), drain(run));
        assertEquals("a", text(in.lastKey().get()));
        in.offer(chunk(List.of("b=3")), run); // the group goes on: still held
        assertEquals(List.of(), drain(run));
        in.offer(chunk(List.of("b=4", "c=1", "d=1")), run);
        assertEquals(List.of("b=1", "b=2", "b=3", "b=4", "c=1"), drain(run));
        assertEquals("c", text(in.lastKey().get()));
        assertTrue(in.exact());
        assertEquals(3, run.chunksConsumed(), "each chunk given is counted once");
        in.finish(run);
        assertEquals(List.of("d=1"), drain(run));
        assertEquals("d", text(in.lastKey().get()));
    }

    @Test
    void aReplacingStreamThatResumesAfterTheCutCompletesEveryRecordOnce() throws IOException {
        Random rnd = new Random(42);
        for (int trial = 0; trial < 200; trial++) {
            List<String> stream = new ArrayList<>();
            int keys = 1 + rnd.nextInt(30);
            for (int k = 0; k < keys; k++) {
                int copies = 1 + rnd.nextInt(rnd.nextBoolean() ? 1 : 6);
                for (int c = 0; c < copies; c++) {
                    stream.add(String.format("k%03d=%d", k, c));
                }
            }
            WholeGroupInput in = new WholeGroupInput(TEXT, 1 << 20, "test");
            ChunkQueueRun run = new ChunkQueueRun("test");
            List<String> got = new ArrayList<>();
            int cutAfterChunks = rnd.nextInt(6);
            int at = 0;
            for (int c = 0; c < cutAfterChunks && at < stream.size(); c++) {
                int n = 1 + rnd.nextInt(5);
                in.offer(chunk(stream.subList(at, Math.min(stream.size(), at + n))), run);
                at = Math.min(stream.size(), at + n);
                got.addAll(drain(run));
            }
            in.cut();
            Optional<String> resumeAfter = in.lastKey().map(WholeGroupInputTest::text);
            assertTrue(in.exact());
            // The replacing stream: every record after the resume key, in chunks of its own, with a stray record at
            // or before it first (the root drops it, should a reader not have).
            List<String> rest = stream.stream().filter(r -> resumeAfter.isEmpty()
                    || new Text(keyOf(r)).compareTo(new Text(resumeAfter.get())) > 0).toList();
            List<String> replacing = new ArrayList<>();
            resumeAfter.ifPresent(k -> replacing.add(k + "=stray"));
            replacing.addAll(rest);
            for (int i = 0; i < replacing.size(); ) {
                int n = 1 + rnd.nextInt(5);
                in.offer(chunk(replacing.subList(i, Math.min(replacing.size(), i + n))), run);
                i += n;
                got.addAll(drain(run));
            }
            in.finish(run);
            got.addAll(drain(run));
            assertEquals(stream, got, "trial " + trial + ", cut after " + cutAfterChunks + " chunks");
        }
    }

    @Test
    void aGroupTooLargeToHoldIsPassedOnAndTheInputIsNotExactUntilItEnds() throws IOException {
        WholeGroupInput in = new WholeGroupInput(TEXT, 8, "test");
        ChunkQueueRun run = new ChunkQueueRun("test");
        in.offer(chunk(List.of("a=1", "b=1")), run);
        in.offer(chunk(List.of("b=2", "b=3")), run);
        assertFalse(in.exact());
        assertEquals(List.of("a=1", "b=1", "b=2", "b=3"), drain(run));
        in.offer(chunk(List.of("b=4", "c=1", "c=2")), run);
        assertTrue(in.exact());
        assertEquals("b", text(in.lastKey().get()));
        assertEquals(List.of("b=4"), drain(run));

        WholeGroupInput single = new WholeGroupInput(TEXT, 8, "test");
        ChunkQueueRun run2 = new ChunkQueueRun("test");
        single.offer(chunk(List.of("a=1", "a=2", "a=3")), run2);
        single.offer(chunk(List.of("a=4", "a=5")), run2);
        assertFalse(single.exact());
        single.offer(chunk(List.of("b=1")), run2); // a chunk of one new key shows the big group ended
        assertTrue(single.exact());
        assertEquals("a", text(single.lastKey().get()));
    }

    private static String text(byte[] serialized) {
        try {
            return WordCounts.text(serialized, 0, serialized.length);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
