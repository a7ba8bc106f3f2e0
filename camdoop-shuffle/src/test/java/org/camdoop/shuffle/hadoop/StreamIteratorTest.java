package org.camdoop.shuffle.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
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
        return over(status, job, (lost, waitMs) -> null, new ArrayList<>(), items);
    }

    /**
     * An iterator over {@code items}, whose map outputs' new attempts come from {@code newAttempts}; each resume's
     * replacements go to {@code resumes}.
     */
    private static StreamIterator over(SentStatus status, org.apache.hadoop.mapred.JobConf job,
            LostMapRecovery.NewAttempts newAttempts, List<SortedMap<String, String>> resumes, StreamItem... items) {
        ArrayDeque<StreamItem> queue = new ArrayDeque<>(List.of(items));
        StreamSource source = new StreamSource() {
            @Override
            public StreamItem next() {
                return queue.poll();
            }

            @Override
            public void resume(StreamItem.Paused paused, SortedMap<String, String> replacements) {
                resumes.add(replacements);
            }

            @Override
            public void close() {
            }
        };
        return new StreamIterator(source, queue.poll(), new CamdoopCounters(Reporter.NULL, new Counters.Counter()),
                "test shuffle", new LostMapRecovery(new LostMapOutputs(job, status, status::send),
                        job.getBoolean(CamdoopJobConfig.DETERMINISTIC_MAPS, false), newAttempts, CLOCK::get));
    }

    /** The task's clock in nanoseconds: the fakes of {@link LostMapRecovery.NewAttempts} move it as they wait. */
    private static final java.util.concurrent.atomic.AtomicLong CLOCK = new java.util.concurrent.atomic.AtomicLong();

    private static final String M3 = "attempt_1700000000000_0031_m_000003_0";
    private static final String M3_RERUN = "attempt_1700000000000_0031_m_000003_1";

    private static org.apache.hadoop.mapred.JobConf deterministic(boolean maps) {
        org.apache.hadoop.mapred.JobConf job = new org.apache.hadoop.mapred.JobConf(false);
        job.setBoolean(CamdoopJobConfig.DETERMINISTIC_MAPS, maps);
        return job;
    }

    private static String drain(StreamIterator it) throws IOException {
        StringBuilder seen = new StringBuilder();
        while (it.next()) {
            seen.append(text(it.getKey())).append('=').append(text(it.getValue())).append(' ');
        }
        return seen.toString();
    }

    /**
     * A stream that paused for a lost map output after records reached the reducer, in a job whose maps are
     * deterministic: the output is reported lost, the map's new attempt awaited, and the stream resumed with it.
     */
    @Test
    void aPauseMidStreamOfDeterministicMapsResumesWithTheRerunMapsAttempt() throws IOException {
        SentStatus status = new SentStatus();
        List<SortedMap<String, String>> resumes = new ArrayList<>();
        List<String> awaited = new ArrayList<>();
        byte[] before = chunk("a", "1");
        byte[] after = chunk("b", "2");
        StreamIterator it = over(status, deterministic(true), (lost, waitMs) -> {
            awaited.add(lost + " " + waitMs);
            return new TreeMap<>(java.util.Map.of(M3, M3_RERUN));
        }, resumes, new StreamItem.Chunk(before, before.length),
                new StreamItem.Paused(List.of(M3), new byte[32], 5000), new StreamItem.Chunk(after, after.length),
                new StreamItem.End(new EndOfStream(MapAttemptSummary.of("root", List.of()), 0, 0)));
        assertEquals("a=1 b=2 ", drain(it));
        assertEquals(List.of("[" + M3 + "] 5000"), awaited);
        assertEquals(List.of(new TreeMap<>(java.util.Map.of(M3, M3_RERUN))), resumes);
        assertEquals(java.util.Collections.nCopies(3, List.of(M3)), status.sends);
    }

    /** Maps not declared deterministic: a pause after records reached the reducer fails the attempt, saying why. */
    @Test
    void aPauseMidStreamOfMapsNotDeclaredDeterministicFailsTheAttemptAfterReportingTheLoss() throws IOException {
        SentStatus status = new SentStatus();
        List<SortedMap<String, String>> resumes = new ArrayList<>();
        byte[] before = chunk("a", "1");
        StreamIterator it = over(status, deterministic(false), (lost, waitMs) -> {
            throw new AssertionError("waited for new attempts");
        }, resumes, new StreamItem.Chunk(before, before.length),
                new StreamItem.Paused(List.of(M3), new byte[32], 5000));
        assertTrue(it.next());
        IOException e = assertThrows(IOException.class, it::next);
        assertEquals("test shuffle failed after 1 records reached the reducer, so this attempt fails (its retry may use"
                + " the stock shuffle): the outputs of map attempts [" + M3 + "] were lost, and"
                + " camdoop.shuffle.deterministic-maps is false, so the shuffle cannot resume after the last key the"
                + " reducer holds: the re-run maps may write other records", e.getMessage());
        assertEquals(List.of(), resumes);
        assertEquals(java.util.Collections.nCopies(3, List.of(M3)), status.sends);
    }

    /** Before any record, a pause resumes whatever the maps: the shuffle starts over with the new attempts. */
    @Test
    void aPauseBeforeAnyRecordResumesEvenWithoutDeterministicMaps() throws IOException {
        List<SortedMap<String, String>> resumes = new ArrayList<>();
        byte[] after = chunk("b", "2");
        StreamIterator it = over(new SentStatus(), deterministic(false),
                (lost, waitMs) -> new TreeMap<>(java.util.Map.of(M3, M3_RERUN)), resumes,
                new StreamItem.Paused(List.of(M3), new byte[32], 5000), new StreamItem.Chunk(after, after.length),
                new StreamItem.End(new EndOfStream(MapAttemptSummary.of("root", List.of()), 0, 0)));
        assertEquals("b=2 ", drain(it));
        assertEquals(1, resumes.size());
    }

    /** No new attempt within the daemon's wait: the attempt fails saying so. */
    @Test
    void newAttemptsThatDoNotComeWithinTheWaitFailTheAttempt() throws IOException {
        StreamIterator it = over(new SentStatus(), deterministic(true), (lost, waitMs) -> {
            CLOCK.addAndGet(waitMs * 1_000_000L);
            return null;
        }, new ArrayList<>(), new StreamItem.Paused(List.of(M3), new byte[32], 5000));
        IOException e = assertThrows(IOException.class, it::next);
        assertTrue(e.getMessage().endsWith(": no new attempts of the maps of [" + M3 + "] succeeded within 5000 ms,"
                + " the daemon's pause timeout"), e.getMessage());
    }

    /**
     * While the task waits, it reports the loss again every minute (an ApplicationMaster that restarted forgot the
     * reports), and waits no longer in all than the daemon does.
     */
    @Test
    void theLossIsReportedAgainEveryMinuteOfTheWait() throws IOException {
        SentStatus status = new SentStatus();
        List<Long> waits = new ArrayList<>();
        StreamIterator it = over(status, deterministic(true), (lost, waitMs) -> {
            waits.add(waitMs);
            if (waits.size() < 3) {
                CLOCK.addAndGet(waitMs * 1_000_000L);
                return null;
            }
            return new TreeMap<>(java.util.Map.of(M3, M3_RERUN));
        }, new ArrayList<>(), new StreamItem.Paused(List.of(M3), new byte[32], 150_000),
                new StreamItem.End(new EndOfStream(MapAttemptSummary.of("root", List.of()), 0, 0)));
        assertEquals("", drain(it));
        assertEquals(List.of(60_000L, 60_000L, 30_000L), waits);
        assertEquals(java.util.Collections.nCopies(9, List.of(M3)), status.sends, "three reports of three notices");
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
