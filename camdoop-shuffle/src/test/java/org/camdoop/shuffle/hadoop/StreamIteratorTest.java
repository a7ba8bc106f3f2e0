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

    /** A reduce task's status as the seam to the ApplicationMaster: what each send carried as fetch failures. */
    private static final class SentStatus extends org.apache.hadoop.mapred.TaskStatus {
        final List<org.apache.hadoop.mapred.TaskAttemptID> pending = new java.util.ArrayList<>();
        final List<List<String>> sends = new java.util.ArrayList<>();

        @Override
        public boolean getIsMap() {
            return false;
        }

        @Override
        public void addFetchFailedMap(org.apache.hadoop.mapred.TaskAttemptID map) {
            pending.add(map);
        }

        /** As the task's reporter does: sends the status, then clears what it carried. */
        void send() {
            sends.add(pending.stream().map(Object::toString).toList());
            pending.clear();
        }
    }

    private static StreamIterator over(StreamItem... items) {
        return over(new SentStatus(), new org.apache.hadoop.mapred.JobConf(false), items);
    }

    private static StreamIterator over(SentStatus status, org.apache.hadoop.mapred.JobConf job, StreamItem... items) {
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
                "test shuffle", new LostMapOutputs(job, status, status::send));
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

    /**
     * The root found map outputs missing at the end (they died with a server): the attempt fails, and first the
     * ApplicationMaster is told they are lost, in as many status updates as it counts before it re-runs a map.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({"-1, 3", "5, 5"})
    void mapOutputsTheRootFoundMissingAreReportedAsFetchFailuresBeforeTheAttemptFails(int configured, int sends)
            throws IOException {
        org.apache.hadoop.mapred.JobConf job = new org.apache.hadoop.mapred.JobConf(false);
        if (configured > 0) {
            job.setInt(org.apache.hadoop.mapreduce.MRJobConfig.MAX_FETCH_FAILURES_NOTIFICATIONS, configured);
        }
        String m2 = "attempt_1700000000000_0031_m_000002_0";
        String m7 = "attempt_1700000000000_0031_m_000007_0";
        String reason = "job_1700000000000_0031 p1 root vertex 2,2,2: partition 1: map attempts missing: [" + m2 + ", "
                + m7 + "] (generation 1, restarted without the failed servers [1,0,0])";
        SentStatus status = new SentStatus();
        byte[] records = chunk("a", "1");
        StreamIterator it = over(status, job, new StreamItem.Chunk(records, records.length),
                new StreamItem.Failed(reason));
        assertTrue(it.next());
        IOException e = assertThrows(IOException.class, it::next);
        assertTrue(e.getMessage().endsWith(reason), e.getMessage());
        assertEquals(java.util.Collections.nCopies(sends, List.of(m2, m7)), status.sends);
    }

    @Test
    void aFailureNamingNoMissingMapOutputReportsNothing() throws IOException {
        SentStatus status = new SentStatus();
        StreamIterator it = over(status, new org.apache.hadoop.mapred.JobConf(false),
                new StreamItem.Failed("daemon 1,0,0 refused its start"));
        assertThrows(IOException.class, it::next);
        assertEquals(List.of(), status.sends);
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
