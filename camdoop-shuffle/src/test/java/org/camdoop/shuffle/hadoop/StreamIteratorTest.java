package org.camdoop.shuffle.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.Reporter;
import org.camdoop.shuffle.protocol.EndOfStream;
import org.camdoop.shuffle.protocol.MapAttemptSummary;
import org.camdoop.shuffle.protocol.StreamItem;
import org.camdoop.shuffle.protocol.StreamSource;
import org.camdoop.shuffle.records.RecordLayout;
import org.junit.jupiter.api.Test;

/** The reducer's iterator over the root stream: records across chunks, and a corrupt chunk fails naming the offset. */
class StreamIteratorTest {

    private static byte[] chunk(String... keysAndValues) {
        byte[] out = new byte[1024];
        int pos = 0;
        for (int i = 0; i < keysAndValues.length; i += 2) {
            byte[] k = keysAndValues[i].getBytes(StandardCharsets.UTF_8);
            byte[] v = keysAndValues[i + 1].getBytes(StandardCharsets.UTF_8);
            pos = RecordLayout.writeRecord(out, pos, k, 0, k.length, v, 0, v.length);
        }
        return Arrays.copyOf(out, pos);
    }

    private static StreamIterator over(StreamItem... items) {
        ArrayDeque<StreamItem> queue = new ArrayDeque<>(List.of(items));
        StreamSource source = new StreamSource() {
            @Override
            public StreamItem next() {
                return queue.poll();
            }

            @Override
            public void close() {
            }
        };
        return new StreamIterator(source, queue.poll(), new CamdoopCounters(Reporter.NULL, new Counters.Counter()),
                "test shuffle");
    }

    private static String text(org.apache.hadoop.io.DataInputBuffer b) {
        return new String(b.getData(), b.getPosition(), b.getLength() - b.getPosition(), StandardCharsets.UTF_8);
    }

    @Test
    void readsRecordsAcrossChunksUntilTheEnd() throws IOException {
        StreamItem.End end = new StreamItem.End(new EndOfStream(MapAttemptSummary.of("root", List.of()), 0, 0));
        byte[] first = chunk("a", "1", "b", "2");
        StreamIterator it = over(new StreamItem.Chunk(first, first.length), new StreamItem.Chunk(new byte[0], 0),
                new StreamItem.Chunk(chunk("c", "3"), chunk("c", "3").length), end);
        StringBuilder seen = new StringBuilder();
        while (it.next()) {
            seen.append(text(it.getKey())).append('=').append(text(it.getValue())).append(' ');
        }
        assertEquals("a=1 b=2 c=3 ", seen.toString());
        assertFalse(it.next());
        assertEquals(1.0f, it.getProgress().getProgress());
    }

    @Test
    void aTruncatedChunkFailsNamingTheOffset() throws IOException {
        byte[] whole = chunk("key", "value", "next", "record");
        // Cut inside the second record's value: its header claims more bytes than the chunk holds.
        int cut = whole.length - 2;
        StreamIterator it = over(new StreamItem.Chunk(whole, cut));
        assertTrue(it.next());
        IOException e = assertThrows(IOException.class, it::next);
        assertTrue(e.getMessage().startsWith("test shuffle: corrupt record at offset "), e.getMessage());
    }

    @Test
    void aFailedStreamFailsTheAttemptWithItsReason() throws IOException {
        StreamIterator it = over(new StreamItem.Failed("root gave up"));
        IOException e = assertThrows(IOException.class, it::next);
        assertTrue(e.getMessage().contains("root gave up"), e.getMessage());
    }
}
