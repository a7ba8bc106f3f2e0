package org.camdoop.shuffle.aggregation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.io.compress.DefaultCodec;
import org.apache.hadoop.mapred.IndexRecord;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.SpillRecord;
import org.camdoop.shuffle.records.RecordLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One decode of a real IFile map output feeding six stripes, consumed in adversarial orders: every stripe must get
 * exactly its records in order, no stripe's queue may exceed the bound, and no order may stall a stripe for good.
 */
class StripeDemuxTest {
    private static final int STRIPES = 6;
    private static final int BOUND = 32 * 1024;

    @TempDir
    Path dir;

    private JobAggregationSpec spec;
    private List<Records.Raw> records;
    private MapOutputPartitionSource source;

    private void write(boolean compressed, int count) throws IOException {
        JobConf job = TestJobs.textInt();
        if (compressed) {
            job.setCompressMapOutput(true);
            job.setMapOutputCompressorClass(DefaultCodec.class);
        }
        spec = JobAggregationSpec.fromJob(job);
        records = Records.sorted(Workloads.zipf(new Random(7), 1, count, 5000, 0.8).get(0), spec.sortComparator());
        MapOutputPartitionRunTest.writeMapOutput(job, path("file.out"), path("file.out.index"),
                List.of(List.of(), records));
        source = MapOutputPartitionSource.locate(spec, path("file.out"), path("file.out.index"), 1);
    }

    private org.apache.hadoop.fs.Path path(String name) {
        return new org.apache.hadoop.fs.Path(dir.resolve(name).toString());
    }

    private List<List<Records.Raw>> expectedStripes() {
        KeyStriper striper = new KeyStriper(STRIPES);
        List<List<Records.Raw>> out = new ArrayList<>();
        for (int s = 0; s < STRIPES; s++) {
            out.add(new ArrayList<>());
        }
        for (Records.Raw r : records) {
            out.get(striper.stripeOf(r.key(), 0, r.key().length)).add(r);
        }
        return out;
    }

    private static void assertSame(List<Records.Raw> expected, List<Records.Raw> got, String what) {
        assertEquals(expected.size(), got.size(), what + ": record count");
        for (int i = 0; i < expected.size(); i++) {
            if (!Arrays.equals(expected.get(i).key(), got.get(i).key())
                    || !Arrays.equals(expected.get(i).value(), got.get(i).value())) {
                fail(what + ": record " + i + " differs");
            }
        }
    }

    /** Wakes posted per stripe by the demux of the last {@link #claimAll}. */
    private final int[] wakes = new int[STRIPES];

    private List<SortedRun> claimAll(StripeDemux demux) {
        List<SortedRun> runs = new ArrayList<>();
        Arrays.fill(wakes, 0);
        for (int s = 0; s < STRIPES; s++) {
            int stripe = s;
            runs.add(demux.claim(s, () -> wakes[stripe]++));
        }
        return runs;
    }

    /**
     * Single-threaded orders: one stripe at a time (each stripe waits for all others: the cross-server wait-for cycle
     * a blocking shared reader would deadlock on), the reverse, in key order, and random bursts.
     */
    @ParameterizedTest
    @ValueSource(strings = {"sequential", "reverse", "one-pace", "random"})
    void everyStripeGetsExactlyItsRecordsWhateverTheConsumptionOrder(String order) throws IOException {
        write(order.equals("random"), 40_000);
        StripeDemux demux = new StripeDemux("test", source, new KeyStriper(STRIPES), BOUND);
        List<SortedRun> runs = claimAll(demux);
        List<List<Records.Raw>> got = new ArrayList<>();
        boolean[] ended = new boolean[STRIPES];
        for (int s = 0; s < STRIPES; s++) {
            got.add(new ArrayList<>());
        }
        Random rnd = new Random(3);
        KeyStriper striper = new KeyStriper(STRIPES);
        long maxQueued = 0;
        int yields = 0;
        while (!allTrue(ended)) {
            int s;
            int burst;
            switch (order) {
                case "sequential" -> { s = firstFalse(ended, false); burst = Integer.MAX_VALUE; }
                case "reverse" -> { s = firstFalse(ended, true); burst = Integer.MAX_VALUE; }
                case "one-pace" -> { s = inKeyOrder(striper, got, ended); burst = 1; }
                default -> { s = rnd.nextInt(STRIPES); burst = 1 + rnd.nextInt(2000); }
            }
            for (int i = 0; i < burst && !ended[s]; i++) {
                int woken = wakes[s];
                Advance a = runs.get(s).advance();
                if (a == Advance.NO_DATA_YET) {
                    // One thread: only a pass that found nothing for this stripe, which must have woken it to retry.
                    assertEquals(woken + 1, wakes[s], "a NO_DATA_YET comes with its wake");
                    yields++;
                    i--;
                    continue;
                }
                if (a == Advance.END) {
                    ended[s] = true;
                } else {
                    got.get(s).add(new Records.Raw(runs.get(s).key().copy(), runs.get(s).value().copy()));
                }
                for (int t = 0; t < STRIPES; t++) {
                    maxQueued = Math.max(maxQueued, demux.queuedBytes(t));
                }
            }
        }
        List<List<Records.Raw>> expected = expectedStripes();
        for (int s = 0; s < STRIPES; s++) {
            assertSame(expected.get(s), got.get(s), order + " stripe " + s);
            assertEquals(Advance.END, runs.get(s).advance(), "END is sticky");
            runs.get(s).close();
        }
        assertTrue(maxQueued <= BOUND, "queued " + maxQueued + " bytes for one stripe, bound " + BOUND);
        assertTrue(yields < 100, yields + " passes found nothing for their stripe");
        if (order.equals("sequential") || order.equals("reverse")) {
            assertEquals(STRIPES - 1, demux.detachedStripes(), "every stripe but the first read detaches");
        } else if (order.equals("one-pace")) {
            assertEquals(0, demux.detachedStripes(), "stripes read at one pace decode once");
        }
    }

    @Test
    void aStripeNobodyReadsHoldsNoOtherStripeUp() throws IOException {
        write(false, 40_000);
        StripeDemux demux = new StripeDemux("test", source, new KeyStriper(STRIPES), BOUND);
        List<SortedRun> runs = claimAll(demux);
        List<List<Records.Raw>> expected = expectedStripes();
        for (int s = 1; s < STRIPES; s++) {
            assertSame(expected.get(s), drainWoken(runs.get(s), s), "stripe " + s);
            assertTrue(demux.queuedBytes(0) <= BOUND, "the idle stripe's queue stays bounded");
        }
        assertSame(expected.get(0), drainWoken(runs.get(0), 0), "the idle stripe, read last");
        for (SortedRun r : runs) {
            r.close();
        }
    }

    @Test
    void aStripeClosedInTheMiddleOfAChunkRefusesToReadOn() throws IOException {
        write(false, 2_000);
        StripeDemux demux = new StripeDemux("test", source, new KeyStriper(STRIPES), BOUND);
        List<SortedRun> runs = claimAll(demux);
        assertEquals(Advance.RECORD, runs.get(0).advance());
        assertEquals(Advance.RECORD, runs.get(0).advance(), "the chunk holds more records than one");
        runs.get(0).close();
        IOException e = assertThrows(IOException.class, () -> runs.get(0).advance());
        assertEquals("stripe 0: read after close", e.getMessage());
        for (int s = 1; s < STRIPES; s++) {
            runs.get(s).close();
        }
    }

    /**
     * A lagging stripe borrows from the daemon's read-ahead pool before it detaches: with room for one whole stripe no
     * stripe detaches when one is read before all others, and every byte comes back; with a small pool stripes borrow
     * at most the pool, then detach as before. Two demuxes share one pool, as the shuffles of a daemon do.
     */
    @Test
    void laggingStripesBorrowFromTheSharedPoolBeforeTheyDetachAndGiveItAllBack() throws IOException {
        write(false, 40_000);
        List<List<Records.Raw>> expected = expectedStripes();
        long largestStripe = 0;
        for (List<Records.Raw> stripe : expected) {
            long bytes = 0;
            for (Records.Raw r : stripe) {
                bytes += RecordLayout.recordSize(r.key().length, r.value().length);
            }
            largestStripe = Math.max(largestStripe, bytes);
        }
        ReadaheadPool roomy = new ReadaheadPool(2 * STRIPES * largestStripe);
        StripeDemux first = new StripeDemux("first", source, new KeyStriper(STRIPES), BOUND, roomy);
        StripeDemux second = new StripeDemux("second", source, new KeyStriper(STRIPES), BOUND, roomy);
        List<SortedRun> firstRuns = claimAll(first);
        List<SortedRun> secondRuns = claimAll(second);
        long peak = 0;
        for (int s = 0; s < STRIPES; s++) {
            assertSame(expected.get(s), drainWoken(firstRuns.get(s), s), "first, stripe " + s);
            assertSame(expected.get(s), drainWoken(secondRuns.get(s), s), "second, stripe " + s);
            peak = Math.max(peak, roomy.usedBytes());
        }
        assertEquals(0, first.detachedStripes(), "no stripe detaches while the pool has room");
        assertEquals(0, second.detachedStripes(), "no stripe detaches while the pool has room");
        assertTrue(peak > 0, "the lagging stripes borrowed");
        for (int s = 0; s < STRIPES; s++) {
            firstRuns.get(s).close();
            secondRuns.get(s).close();
        }
        assertEquals(0, roomy.usedBytes(), "every borrowed byte is given back");

        ReadaheadPool small = new ReadaheadPool(3 * StripeDemux.CHUNK_BYTES);
        StripeDemux tight = new StripeDemux("tight", source, new KeyStriper(STRIPES), BOUND, small);
        List<SortedRun> runs = claimAll(tight);
        for (int s = 0; s < STRIPES; s++) {
            assertSame(expected.get(s), drainWoken(runs.get(s), s), "tight, stripe " + s);
            assertTrue(small.usedBytes() <= small.capacityBytes(), "borrowed within the pool");
            for (int t = 0; t < STRIPES; t++) {
                assertTrue(tight.queuedBytes(t) <= BOUND + small.capacityBytes() + StripeDemux.CHUNK_BYTES,
                        "stripe " + t + " queued " + tight.queuedBytes(t));
            }
        }
        assertEquals(STRIPES - 1, tight.detachedStripes(), "once the pool is lent out, lagging stripes detach");
        for (SortedRun r : runs) {
            r.close();
        }
        assertEquals(0, small.usedBytes(), "every borrowed byte is given back");
    }

    /** A pass is bounded: a stripe with no records at all yields (NO_DATA_YET plus its wake), it does not spin. */
    @Test
    void aStripeWithoutRecordsYieldsBetweenBoundedPassesAndStillEnds() throws IOException {
        write(false, 40_000);
        // Two stripes; records only of the first: keep the records of stripe 0 of a 2-way striper.
        KeyStriper two = new KeyStriper(2);
        records = records.stream().filter(r -> two.stripeOf(r.key(), 0, r.key().length) == 0).toList();
        MapOutputPartitionRunTest.writeMapOutput(spec.job(), path("file.out"), path("file.out.index"),
                List.of(List.of(), records));
        source = MapOutputPartitionSource.locate(spec, path("file.out"), path("file.out.index"), 1);
        StripeDemux demux = new StripeDemux("test", source, two, BOUND * 8);
        int[] woken = wakes;
        Arrays.fill(woken, 0);
        SortedRun empty = demux.claim(1, () -> woken[1]++);
        SortedRun full = demux.claim(0, () -> woken[0]++);
        int yields = 0;
        while (true) {
            int before = woken[1];
            Advance a = empty.advance();
            if (a == Advance.END) {
                break;
            }
            assertEquals(Advance.NO_DATA_YET, a, "stripe 1 has no records");
            assertEquals(before + 1, woken[1], "each yield wakes the stripe to retry");
            yields++;
        }
        assertTrue(yields > 0, "the empty stripe had to yield at least once");
        assertSame(records, drainWoken(full, 0), "stripe 0 got everything, queued while stripe 1 drove");
        empty.close();
        full.close();
    }

    /**
     * Six threads, one per stripe, at random paces: NO_DATA_YET happens (the decoder is busy on another thread) and
     * each one is followed by its waker; a stripe that waited for a wake longer than 30 s fails the test.
     */
    @Test
    void concurrentConsumersAreWokenAfterEveryStall() throws Exception {
        write(true, 60_000);
        StripeDemux demux = new StripeDemux("test", source, new KeyStriper(STRIPES), BOUND);
        List<Semaphore> wakes = new ArrayList<>();
        List<SortedRun> runs = new ArrayList<>();
        for (int s = 0; s < STRIPES; s++) {
            Semaphore wake = new Semaphore(0);
            wakes.add(wake);
            runs.add(demux.claim(s, wake::release));
        }
        ExecutorService pool = Executors.newFixedThreadPool(STRIPES);
        try {
            List<Future<List<Records.Raw>>> results = new ArrayList<>();
            int[] stalls = new int[STRIPES];
            for (int s = 0; s < STRIPES; s++) {
                int stripe = s;
                results.add(pool.submit(() -> {
                    Random rnd = new Random(stripe);
                    List<Records.Raw> got = new ArrayList<>();
                    SortedRun run = runs.get(stripe);
                    while (true) {
                        Advance a = run.advance();
                        if (a == Advance.END) {
                            return got;
                        }
                        if (a == Advance.NO_DATA_YET) {
                            stalls[stripe]++;
                            if (!wakes.get(stripe).tryAcquire(30, TimeUnit.SECONDS)) {
                                throw new AssertionError("stripe " + stripe + " was never woken after NO_DATA_YET");
                            }
                            wakes.get(stripe).drainPermits();
                            continue;
                        }
                        got.add(new Records.Raw(run.key().copy(), run.value().copy()));
                        if (rnd.nextInt(500) == 0) {
                            Thread.yield();
                        }
                    }
                }));
            }
            List<List<Records.Raw>> expected = expectedStripes();
            for (int s = 0; s < STRIPES; s++) {
                assertSame(expected.get(s), results.get(s).get(60, TimeUnit.SECONDS), "stripe " + s);
                runs.get(s).close();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aCorruptByteFailsEveryStripeWithChecksumException(boolean compressed) throws IOException {
        write(compressed, 20_000);
        IndexRecord segment = new SpillRecord(path("file.out.index"), spec.job()).getIndex(1);
        Random rnd = new Random(11);
        for (int trial = 0; trial < 6; trial++) {
            long at = segment.startOffset + (trial == 0 ? segment.partLength - 1 : rnd.nextInt((int) segment.partLength));
            flipByte(dir.resolve("file.out"), at);
            StripeDemux demux = new StripeDemux("test", source, new KeyStriper(STRIPES), BOUND);
            List<SortedRun> runs = claimAll(demux);
            for (int s = 0; s < STRIPES; s++) {
                SortedRun run = runs.get(s);
                int stripe = s;
                assertThrows(ChecksumException.class, () -> drainWoken(run, stripe),
                        "stripe " + s + ", corrupt byte at offset " + at);
                run.close();
            }
            flipByte(dir.resolve("file.out"), at);
        }
    }

    /**
     * Every record of one stripe's run on one thread: a NO_DATA_YET there can only be a yield (a bounded pass or a
     * detached stripe catching up), which must come with the stripe's wake.
     */
    private List<Records.Raw> drainWoken(SortedRun run, int stripe) throws IOException {
        List<Records.Raw> out = new ArrayList<>();
        while (true) {
            int woken = wakes[stripe];
            Advance a = run.advance();
            if (a == Advance.END) {
                return out;
            }
            if (a == Advance.NO_DATA_YET) {
                assertEquals(woken + 1, wakes[stripe], "a NO_DATA_YET comes with its wake");
                continue;
            }
            out.add(new Records.Raw(run.key().copy(), run.value().copy()));
        }
    }

    /**
     * The stripe of the next record of the segment no stripe has taken yet, then each unended stripe for its END: every
     * tree at the same point of the key space, the pace of trees whose vertices all keep up.
     */
    private int inKeyOrder(KeyStriper striper, List<List<Records.Raw>> got, boolean[] ended) {
        int taken = got.stream().mapToInt(List::size).sum();
        if (taken < records.size()) {
            byte[] key = records.get(taken).key();
            return striper.stripeOf(key, 0, key.length);
        }
        return firstFalse(ended, false);
    }

    private static boolean allTrue(boolean[] b) {
        for (boolean x : b) {
            if (!x) {
                return false;
            }
        }
        return true;
    }

    private static int firstFalse(boolean[] b, boolean fromEnd) {
        for (int i = 0; i < b.length; i++) {
            int j = fromEnd ? b.length - 1 - i : i;
            if (!b[j]) {
                return j;
            }
        }
        throw new AssertionError();
    }

    private static void flipByte(Path file, long at) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(at);
            int b = f.read();
            f.seek(at);
            f.write(b ^ 0x5A);
        }
    }
}
