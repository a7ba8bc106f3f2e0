package org.camdoop.shuffle.service;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.io.RawComparator;
import org.camdoop.shuffle.protocol.EndOfStream;
import org.camdoop.shuffle.protocol.MapAttemptSummary;
import org.camdoop.shuffle.protocol.StreamItem;
import org.camdoop.shuffle.records.RawBytes;
import org.camdoop.shuffle.records.RecordCursor;
import org.camdoop.shuffle.testing.TextChunks;
import org.junit.jupiter.api.Test;

/**
 * The root's output passes whole key groups only, so its resume point is exact: a generation detached at any chunk
 * and a next one resuming after that point give the reducer every record once.
 */
class GenerationOutputTest {

    private static final RawComparator<Object> TEXT = TextChunks.ORDER;
    private static final EndOfStream END = new EndOfStream(MapAttemptSummary.of("t", List.of()), 0, 0);

    private static byte[] key(String k) {
        return TextChunks.key(k);
    }

    /** A chunk of records "key=value". */
    private static byte[] chunk(String... records) {
        return TextChunks.chunk(List.of(records));
    }

    private static boolean offer(GenerationOutput out, byte[] chunk) {
        return out.offer(chunk.clone(), chunk.length);
    }

    /** Everything the reducer can take now, as "key=value" strings. */
    private static List<String> take(RootStream stream) throws IOException, InterruptedException {
        List<String> got = new ArrayList<>();
        RecordCursor cursor = new RecordCursor("test");
        RawBytes k = new RawBytes();
        RawBytes v = new RawBytes();
        while (true) {
            StreamItem item = stream.next(Duration.ZERO);
            if (!(item instanceof StreamItem.Chunk c)) {
                return got;
            }
            cursor.reset(c.bytes(), 0, c.length());
            while (cursor.next(k, v)) {
                got.add(org.camdoop.shuffle.testing.WordCounts.text(k.array(), k.offset(), k.length()) + "="
                        + new String(v.array(), v.offset(), v.length(), java.nio.charset.StandardCharsets.US_ASCII));
            }
        }
    }

    private static String lastKey(GenerationOutput.ResumePoint p) throws IOException {
        byte[] k = p.lastKey().orElseThrow();
        return org.camdoop.shuffle.testing.WordCounts.text(k, 0, k.length);
    }

    @Test
    void passesWholeKeyGroupsOnlyAndTheEndReleasesTheLast() throws Exception {
        RootStream stream = new RootStream(8);
        GenerationOutput out = new GenerationOutput(stream, TEXT, Optional.empty(), 1 << 20, "");
        assertTrue(offer(out, chunk("a=1", "b=1", "b=2")));
        assertEquals(List.of("a=1"), take(stream));
        assertTrue(offer(out, chunk("b=3", "c=1")));
        assertEquals(List.of("b=1", "b=2", "b=3"), take(stream));
        assertTrue(offer(out, chunk("c=2", "d=1")));
        assertEquals(List.of("c=1", "c=2"), take(stream));
        out.end(END);
        assertEquals(List.of("d=1"), take(stream));
        assertInstanceOf(StreamItem.End.class, stream.next(Duration.ZERO));
    }

    @Test
    void aNextGenerationResumingAfterTheDetachPointDeliversEveryRecordOnce() throws Exception {
        RootStream stream = new RootStream(8);
        GenerationOutput first = new GenerationOutput(stream, TEXT, Optional.empty(), 1 << 20, "");
        offer(first, chunk("a=1", "b=1", "b=2"));
        offer(first, chunk("b=3", "c=1"));
        GenerationOutput.ResumePoint at = first.detach();
        assertTrue(at.exact());
        assertEquals("b", lastKey(at));
        // The old generation's late output and failure go nowhere.
        assertTrue(offer(first, chunk("c=2", "d=1")));
        first.fail("aborted");
        // The next generation's readers skip keys up to b; a record at b that still reached the root is dropped too.
        GenerationOutput second = new GenerationOutput(stream, TEXT, at.lastKey(), 1 << 20, "");
        offer(second, chunk("b=9", "c=1", "c=2"));
        offer(second, chunk("d=1"));
        second.end(END);
        assertEquals(List.of("a=1", "b=1", "b=2", "b=3", "c=1", "c=2", "d=1"), take(stream));
        assertInstanceOf(StreamItem.End.class, stream.next(Duration.ZERO));
    }

    @Test
    void aDetachBeforeAnyDeliveryResumesFromTheStartOrFromTheGenerationsOwnKey() throws Exception {
        RootStream stream = new RootStream(8);
        GenerationOutput first = new GenerationOutput(stream, TEXT, Optional.empty(), 1 << 20, "");
        offer(first, chunk("a=1", "a=2"));
        assertEquals(Optional.empty(), first.detach().lastKey());
        GenerationOutput second = new GenerationOutput(stream, TEXT, Optional.of(key("a")), 1 << 20, "");
        GenerationOutput.ResumePoint again = second.detach();
        assertEquals("a", lastKey(again));
        assertTrue(again.exact());
    }

    @Test
    void aGroupLargerThanTheHoldLimitPassesAndLeavesNoExactPointUntilTheNextBoundary() throws Exception {
        RootStream stream = new RootStream(8);
        GenerationOutput out = new GenerationOutput(stream, TEXT, Optional.empty(), 10, " (note)");
        offer(out, chunk("a=1", "x=1", "x=2"));
        assertEquals(List.of("a=1"), take(stream));
        offer(out, chunk("x=3", "x=4")); // the held x group is now above 10 bytes: passed on
        assertEquals(List.of("x=1", "x=2", "x=3", "x=4"), take(stream));
        assertFalse(stream.bytesDelivered() == 0);
        offer(out, chunk("x=5", "y=1"));
        assertEquals(List.of("x=5"), take(stream));
        out.fail("boom");
        StreamItem failed = stream.next(Duration.ZERO);
        assertEquals("boom (note)", ((StreamItem.Failed) failed).reason());
        RootStream other = new RootStream(8);
        GenerationOutput midGroup = new GenerationOutput(other, TEXT, Optional.empty(), 10, "");
        offer(midGroup, chunk("x=1", "x=2"));
        offer(midGroup, chunk("x=3", "x=4"));
        assertFalse(midGroup.detach().exact());
    }

    @Test
    void aFullStreamRefusesTheChunkWithoutTakingAnyOfItAndWakesWhenRoomIsBack() throws Exception {
        RootStream stream = new RootStream(1);
        GenerationOutput out = new GenerationOutput(stream, TEXT, Optional.empty(), 1 << 20, "");
        assertTrue(offer(out, chunk("a=1", "b=1")));
        assertFalse(offer(out, chunk("c=1")));
        AtomicBoolean woken = new AtomicBoolean();
        out.whenWritable(() -> woken.set(true));
        assertFalse(woken.get());
        assertEquals(List.of("a=1"), take(stream));
        assertTrue(woken.get());
        assertTrue(offer(out, chunk("c=1")));
        out.end(END);
        assertEquals(List.of("b=1", "c=1"), take(stream));
        assertArrayEquals(key("b"), out.detach().lastKey().orElseThrow());
    }
}
