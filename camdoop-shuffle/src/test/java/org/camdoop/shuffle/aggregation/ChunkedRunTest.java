package org.camdoop.shuffle.aggregation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.junit.jupiter.api.Test;

/**
 * The runs that parse records out of byte chunks share {@link ChunkedRun#advance()}: the next record of the current
 * chunk, else the subclass's {@code afterChunk()}. What each subclass must keep doing across chunk boundaries, stalls,
 * the end and close.
 */
class ChunkedRunTest {

    private static byte[] chunk(String... keys) {
        return Records.layout(java.util.Arrays.stream(keys)
                .map(k -> Records.raw(new Text(k), new IntWritable(1))).toList());
    }

    private static void assertRecord(SortedRun run, String key) throws IOException {
        assertEquals(Advance.RECORD, run.advance());
        assertArrayEquals(Records.bytes(new Text(key)), run.key().copy());
    }

    @Test
    void aChildsChunksAreReadAcrossStallsAndTheEnd() throws IOException {
        ChunkQueueRun run = new ChunkQueueRun("child on tree 0");
        assertEquals(Advance.NO_DATA_YET, run.advance(), "nothing queued");
        byte[] first = chunk("a", "b");
        run.offer(first, first.length);
        run.offer(new byte[0], 0);
        byte[] second = chunk("c");
        run.offer(second, second.length);
        assertRecord(run, "a");
        assertRecord(run, "b");
        assertRecord(run, "c");
        assertEquals(2, run.chunksConsumed(), "the empty chunk was never queued");
        assertEquals(Advance.NO_DATA_YET, run.advance(), "both chunks read, the stream still open");
        run.finish();
        assertEquals(Advance.END, run.advance());
        assertEquals(Advance.END, run.advance(), "and stays ended");
    }

    @Test
    void aClosedChildReadsNothingMoreOfItsCurrentChunk() throws IOException {
        ChunkQueueRun run = new ChunkQueueRun("child on tree 0");
        byte[] chunk = chunk("a", "b", "c");
        run.offer(chunk, chunk.length);
        assertRecord(run, "a");
        run.close();
        assertEquals(Advance.END, run.advance(), "b and c were dropped with the run");
    }

    @Test
    void bytesInMemoryAreOneChunkAndTheViewsAreStable() throws IOException {
        ByteArrayRun run = new ByteArrayRun(chunk("x", "y"));
        List<Object> views = List.of(run.key(), run.value());
        assertRecord(run, "x");
        assertRecord(run, "y");
        assertEquals(Advance.END, run.advance());
        assertSame(views.get(0), run.key(), "updated in place, as a merge that took them once expects");
        assertSame(views.get(1), run.value());
        assertTrue(run.stableViews());
    }
}
