package org.camdoop.shuffle.service;

import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.protocol.StreamItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.mapred.JobConf;
import org.camdoop.shuffle.daemon.EmbeddedTorus;
import org.camdoop.shuffle.service.net.StartProof;
import org.camdoop.shuffle.service.vertex.LocalMapOutput;
import org.camdoop.shuffle.testing.WordCounts;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.TransportConfig;
import org.camdoop.torus.trees.TreeChoice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A shuffle that loses map outputs waits for their maps' new attempts, and a shuffle that cannot finish fails, naming
 * why; either way the surviving daemons are left with nothing of the generation that stopped. (A server dying without
 * map outputs of the job is recovered from at once: {@code RecoveryTest}.)
 */
class FailureCleanupTest {

    private static final String JOB = "job_1700000000000_0021";
    private static final TorusShape SHAPE = TorusShape.parse("3x3x3");

    @TempDir
    Path dir;

    private static TransportConfig config() {
        return TransportConfig.of(Map.of(TransportConfig.CLUSTER_SECRET, "failure-cleanup-test-secret-of-32-bytes", TransportConfig.SEGMENT_BYTES, "4096",
                TransportConfig.MAX_FRAME_BYTES, "8192",
                // Slow links, so the shuffle is still running when a server dies; quick failure detection.
                TransportConfig.SHAPING_BYTES_PER_SECOND, "100000", TransportConfig.SHAPING_BURST_BYTES, "8192",
                TransportConfig.FAILURE_TIMEOUT_MS, "200"));
    }

    /** Per server, the word counts its map wrote. */
    private final java.util.List<Map<String, Integer>> counts = new java.util.ArrayList<>();
    private final JobConf conf = WordCounts.job(1);

    private TreeSet<String> write(EmbeddedTorus torus) throws Exception {
        torus.registerJob(JOB, conf);
        Random rnd = new Random(21);
        TreeSet<String> attempts = new TreeSet<>();
        for (int server = 0; server < SHAPE.size(); server++) {
            String attempt = String.format("attempt_1700000000000_0021_m_%06d_0", server);
            Map<String, Integer> words = new TreeMap<>();
            for (int i = 0; i < 3000; i++) {
                // Shared words too, so that records of one key come from several maps.
                words.merge((i % 3 == 0 ? "w" : "w" + server + "-") + rnd.nextInt(100000), 1, Integer::sum);
            }
            counts.add(words);
            torus.addMapOutput(server, JOB, output(attempt, words));
            attempts.add(attempt);
        }
        return attempts;
    }

    private LocalMapOutput output(String attempt, Map<String, Integer> words) throws java.io.IOException {
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(dir.resolve(attempt + ".out").toString());
        org.apache.hadoop.fs.Path index = new org.apache.hadoop.fs.Path(dir.resolve(attempt + ".idx").toString());
        WordCounts.write(conf, file, index, words);
        return new LocalMapOutput(attempt, file, index);
    }

    private static final Duration SETTLE = Duration.ofSeconds(20);

    /**
     * A server dies with its map output mid-shuffle (noagg: every record counts). The root pauses the shuffle naming
     * the lost output, and every surviving daemon drops its part of the aborted generation. The map runs again (the
     * same records, under a new attempt, on another server); the shuffle resumes with it after the last key the reducer
     * holds, and the reducer gets every record of every map exactly once, in order. With {@code secondWhilePaused},
     * another server dies with its output while the shuffle waits: the resume pauses it again at once for that one.
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "a second server dies while paused: {0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void aServerDyingWithItsMapOutputPausesTheShuffleUntilTheMapsNewAttemptAndEveryRecordArrivesOnce(
            boolean secondWhilePaused) throws Exception {
        try (EmbeddedTorus torus = EmbeddedTorus.start(FailureView.none(SHAPE), config(),
                EmbeddedTorus.Wiring.IN_JVM, 2)) {
            TreeSet<String> attempts = write(torus);
            ShuffleSpec spec = new ShuffleSpec(21L, JOB, 0, 0, new Coord(0, 0, 0), ShuffleMode.NOAGG, TreeChoice.SIX,
                    attempts);
            RootStream root = torus.service(0).startShuffle(spec);
            // Let data flow, then kill the server in the middle of the torus.
            StreamItem first = root.next(Duration.ofSeconds(20));
            StreamItem.Chunk chunk = assertInstanceOf(StreamItem.Chunk.class, first, first::toString);
            int dead = SHAPE.index(new Coord(1, 1, 1));
            torus.node(dead).close();
            java.util.List<StreamItem.Chunk> received = new java.util.ArrayList<>(java.util.List.of(chunk));
            String lost = "attempt_1700000000000_0021_m_000013_0";
            readUntilPausedFor(root, received, lost);
            StreamItem n;
            TorusWaits.idle(torus, s -> s != dead, SETTLE);
            TorusWaits.noOpenStreams(torus, s -> s != dead, SETTLE);
            // What the root's status page lists while it waits.
            assertEquals(java.util.List.of(new ShuffleStatus(JOB, 0, "0,0,0", 0, 0, 0, java.util.List.of(lost))),
                    torus.service(0).shuffles(10));

            int second = SHAPE.index(new Coord(2, 1, 1));
            if (secondWhilePaused) {
                torus.node(second).close();
                torus.service(0).whenView(v -> v.isFailed(second)).get(30, TimeUnit.SECONDS);
            }
            // The ApplicationMaster runs map 13 again on server 5; its new attempt writes the same records.
            String rerun = "attempt_1700000000000_0021_m_000013_1";
            torus.addMapOutput(5, JOB, output(rerun, counts.get(13)));
            assertEquals(null, torus.service(0).resume(spec, new TreeMap<>(Map.of(lost, rerun)), StartProof.NONE));
            if (secondWhilePaused) {
                n = root.next(Duration.ofSeconds(30));
                String lost2 = String.format("attempt_1700000000000_0021_m_%06d_0", second);
                StreamItem.Paused again = assertInstanceOf(StreamItem.Paused.class, n, n::toString);
                assertEquals(java.util.List.of(lost2), again.lost());
                String rerun2 = String.format("attempt_1700000000000_0021_m_%06d_1", second);
                torus.addMapOutput(7, JOB, output(rerun2, counts.get(second)));
                assertEquals(null, torus.service(0).resume(spec, new TreeMap<>(Map.of(lost2, rerun2)),
                        StartProof.NONE));
            }
            while ((n = root.next(Duration.ofSeconds(30))) instanceof StreamItem.Chunk c) {
                received.add(c);
            }
            assertInstanceOf(StreamItem.End.class, n, n::toString);
            assertEquals(expectedRecords(), records(received));
            DaemonCounters.Snapshot totals = torus.service(0).counters().snapshot();
            assertEquals(secondWhilePaused ? 2 : 1, totals.pauses(), "pauses");
            assertEquals(1, totals.restarts(), "generations after the first");
        }
    }

    /**
     * A server holding a map output died before the shuffle started, so the shuffle is planned without it: once every
     * live server has reported, the root knows none holds that output and pauses for the map's new attempt at once (it
     * used to find the output missing at the end, and fail the attempt). Every record then arrives once. With
     * {@code rerunHeldByNone}, the map's new attempt is handed to no daemon either (its collector fell back): the root
     * does not pause again, and the end check fails the shuffle naming it, so the attempt's retry can take the stock
     * shuffle.
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "the re-run held by no daemon either: {0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void anOutputWhoseServerDiedBeforeTheShuffleStartedPausesItOnceEveryLiveServerReported(boolean rerunHeldByNone)
            throws Exception {
        try (EmbeddedTorus torus = EmbeddedTorus.start(FailureView.none(SHAPE), config(),
                EmbeddedTorus.Wiring.IN_JVM, 2)) {
            TreeSet<String> attempts = write(torus);
            int dead = SHAPE.index(new Coord(1, 1, 1));
            torus.crash(dead);
            torus.service(0).whenView(v -> v.isFailed(dead)).get(30, TimeUnit.SECONDS);
            ShuffleSpec spec = new ShuffleSpec(25L, JOB, 0, 0, new Coord(0, 0, 0), ShuffleMode.NOAGG, TreeChoice.SIX,
                    attempts);
            RootStream root = torus.service(0).startShuffle(spec);
            java.util.List<StreamItem.Chunk> received = new java.util.ArrayList<>();
            String lost = "attempt_1700000000000_0021_m_000013_0";
            readUntilPausedFor(root, received, lost);
            TorusWaits.idle(torus, s -> s != dead, SETTLE);
            StreamItem n;
            String rerun = "attempt_1700000000000_0021_m_000013_1";
            if (!rerunHeldByNone) {
                torus.addMapOutput(5, JOB, output(rerun, counts.get(13)));
            }
            assertEquals(null, torus.service(0).resume(spec, new TreeMap<>(Map.of(lost, rerun)), StartProof.NONE));
            while ((n = root.next(Duration.ofSeconds(30))) instanceof StreamItem.Chunk c) {
                received.add(c);
            }
            if (rerunHeldByNone) {
                StreamItem.Failed failed = assertInstanceOf(StreamItem.Failed.class, n, n::toString);
                assertEquals("job_1700000000000_0021 p0 root vertex 0,0,0: partition 0: map attempts missing: ["
                        + rerun + "] (generation 1, restarted without the failed servers [1,1,1])", failed.reason());
            } else {
                assertInstanceOf(StreamItem.End.class, n, n::toString);
                assertEquals(expectedRecords(), records(received));
            }
            assertEquals(1, torus.service(0).counters().snapshot().pauses(), "pauses");
        }
    }

    /** What else goes wrong while the root waits for the reports of a server that died before its own. */
    enum WhileWaiting {
        NOTHING,
        /** Every daemon admits only STARTs with the reduce task's proof, and one is slow to take its START. */
        A_SLOW_REPORTER_WITH_PROOFS,
        /**
         * The slow one is also named failed, in a run earlier than the one running, by a view that reaches the root
         * as a restarted neighbour's would: the root planned before it heard of that later run.
         */
        A_STALE_FAILURE_OF_THE_SLOW_REPORTER
    }

    /**
     * A server holding a map output dies before it reported what it holds (here it never took the START at all), so
     * nothing can have reached the reducer: the root waits for every other server's report, pauses for the output no
     * live server holds, and resumes from the start with the map's new attempt; every record arrives once. With a slow
     * reporter, server 2,2,2 takes its first START only once the root asked it again: with proofs, by a START that
     * still carries the proof; with a stale failure, the root still awaits its report and counts it (it paused for
     * 2,2,2's output too when it took the news of an ended run for the end of the run that took the START).
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "while the root waits: {0}")
    @org.junit.jupiter.params.provider.EnumSource(WhileWaiting.class)
    void aServerDyingBeforeItsReportPausesTheShuffleForTheOutputsNoLiveServerHolds(WhileWaiting twist)
            throws Exception {
        try (EmbeddedTorus torus = EmbeddedTorus.start(FailureView.none(SHAPE), config(),
                EmbeddedTorus.Wiring.IN_JVM, 2)) {
            TreeSet<String> attempts = write(torus);
            int dead = SHAPE.index(new Coord(1, 1, 1));
            int slow = SHAPE.index(new Coord(2, 2, 2));
            torus.service(dead).halt("deaf from the start: it takes no START, so it reports nothing");
            StartProof proof = StartProof.NONE;
            if (twist == WhileWaiting.A_SLOW_REPORTER_WITH_PROOFS) {
                proof = new StartProof(new byte[] {1, 2, 3}, new byte[] {4, 5, 6});
                for (int s = 0; s < SHAPE.size(); s++) {
                    torus.service(s).checkStartsWith((started, carried) -> carried.isNone()
                            ? "it carries no job token proof" : null);
                }
            }
            java.util.concurrent.CountDownLatch asked = twist == WhileWaiting.NOTHING
                    ? new java.util.concurrent.CountDownLatch(0) : slowToTakeItsStart(torus.service(slow),
                    twist == WhileWaiting.A_SLOW_REPORTER_WITH_PROOFS);
            ShuffleSpec spec = new ShuffleSpec(23L, JOB, 0, 0, new Coord(0, 0, 0), ShuffleMode.NOAGG, TreeChoice.SIX,
                    attempts);
            RootStream root = torus.service(0).startShuffle(spec, proof);
            if (twist == WhileWaiting.A_STALE_FAILURE_OF_THE_SLOW_REPORTER) {
                sendStaleFailure(torus, slow, 0);
            }
            torus.crash(dead);
            StreamItem n = root.next(Duration.ofSeconds(30));
            StreamItem.Paused paused = assertInstanceOf(StreamItem.Paused.class, n, n::toString);
            String lost = "attempt_1700000000000_0021_m_000013_0";
            assertEquals(java.util.List.of(lost), paused.lost());
            assertEquals(0, asked.getCount(), "the slow server was not asked again");
            if (twist == WhileWaiting.A_STALE_FAILURE_OF_THE_SLOW_REPORTER) {
                // The root took the news (2,2,2 is not its neighbour: it had planned knowing no run of it).
                assertEquals(torus.node(slow).incarnation() - 1, torus.service(0).views().declaredRun(slow));
                assertTrue(torus.service(0).views().current().isLive(slow), "2,2,2 taken out by a stale report");
            }
            // Nothing of the aborted generation runs anywhere, the server asked again included.
            TorusWaits.idle(torus, s -> s != dead, SETTLE);
            TorusWaits.noOpenStreams(torus, s -> s != dead, SETTLE);
            String rerun = "attempt_1700000000000_0021_m_000013_1";
            torus.addMapOutput(5, JOB, output(rerun, counts.get(13)));
            assertEquals(null, torus.service(0).resume(spec, new TreeMap<>(Map.of(lost, rerun)), proof));
            java.util.List<StreamItem.Chunk> received = new java.util.ArrayList<>();
            while ((n = root.next(Duration.ofSeconds(30))) instanceof StreamItem.Chunk c) {
                received.add(c);
            }
            assertInstanceOf(StreamItem.End.class, n, n::toString);
            assertEquals(expectedRecords(), records(received));
            DaemonCounters.Snapshot totals = torus.service(0).counters().snapshot();
            assertEquals(1, totals.pauses(), "pauses");
        }
    }

    /**
     * Makes {@code service} hold its first START (and the report it answers with) until the root asks it again with
     * another; with {@code proofs}, it refuses STARTs without one. The latch opens on the second START.
     */
    private static java.util.concurrent.CountDownLatch slowToTakeItsStart(CamdoopService service, boolean proofs) {
        java.util.concurrent.CountDownLatch asked = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.atomic.AtomicInteger checks = new java.util.concurrent.atomic.AtomicInteger();
        service.checkStartsWith((started, carried) -> {
            if (proofs && carried.isNone()) {
                return "it carries no job token proof";
            }
            if (checks.incrementAndGet() == 1) {
                try { // the first START waits (its report with it) until the root asks again
                    asked.await(20, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            } else {
                asked.countDown();
            }
            return null;
        });
        return asked;
    }

    /**
     * Tells {@code to} what a neighbour of a daemon that restarted tells it (VIEW): {@code server}'s running daemon
     * came up on a link, and the run before it failed (old news everywhere else).
     */
    private static void sendStaleFailure(EmbeddedTorus torus, int server, int to) {
        Coord at = SHAPE.coord(server);
        int neighbour = SHAPE.index(new Coord(at.x(), at.y(), (at.z() + 1) % SHAPE.dim(2)));
        long run = torus.node(server).incarnation();
        org.camdoop.shuffle.service.net.MembershipMessages.View view =
                new org.camdoop.shuffle.service.net.MembershipMessages.View(false,
                        java.util.List.of(new org.camdoop.shuffle.service.net.MembershipMessages.ServerRun(server,
                                run - 1)),
                        java.util.List.of(),
                        java.util.List.of(new org.camdoop.shuffle.service.net.MembershipMessages.LinkRuns(server, run,
                                neighbour, torus.node(neighbour).incarnation())));
        torus.node(neighbour).sendService(SHAPE.coord(to),
                new org.camdoop.torus.transport.wire.StreamId(0, 0, ControlTrees.CONTROL, neighbour),
                io.netty.buffer.Unpooled.wrappedBuffer(
                        org.camdoop.shuffle.service.net.MembershipMessages.view(view)));
    }

    /** Reads chunks into {@code received} until the stream pauses, and checks that it names {@code lost} alone. */
    private static void readUntilPausedFor(RootStream root, java.util.List<StreamItem.Chunk> received, String lost)
            throws Exception {
        StreamItem n;
        while ((n = root.next(Duration.ofSeconds(30))) instanceof StreamItem.Chunk c) {
            received.add(c);
        }
        StreamItem.Paused paused = assertInstanceOf(StreamItem.Paused.class, n, n::toString);
        assertEquals(java.util.List.of(lost), paused.lost());
    }

    /** The records every map wrote, as "word=count" in the reducer's order (noagg: each map's records apart). */
    private java.util.List<String> expectedRecords() {
        java.util.List<String> all = new java.util.ArrayList<>();
        counts.forEach(c -> c.forEach((w, v) -> all.add(w + "=" + v)));
        all.sort(java.util.Comparator.comparing((String r) -> new org.apache.hadoop.io.Text(r.substring(0,
                r.indexOf('='))))
                .thenComparing(r -> r));
        return all;
    }

    /** The records of {@code chunks}, as "word=count", sorted like {@link #expectedRecords()} within each key. */
    private static java.util.List<String> records(java.util.List<StreamItem.Chunk> chunks) throws Exception {
        org.camdoop.shuffle.aggregation.ChunkQueueRun run = new org.camdoop.shuffle.aggregation.ChunkQueueRun("r");
        chunks.forEach(c -> run.offer(c.bytes(), c.length()));
        run.finish();
        java.util.List<String> out = new java.util.ArrayList<>();
        String previous = null;
        while (run.advance() == org.camdoop.shuffle.aggregation.Advance.RECORD) {
            String word = WordCounts.text(run.key().array(), run.key().offset(), run.key().length());
            assertTrue(previous == null || new org.apache.hadoop.io.Text(previous).compareTo(
                    new org.apache.hadoop.io.Text(word)) <= 0, "out of order at " + word);
            previous = word;
            out.add(word + "=" + WordCounts.intValue(run.value().array(), run.value().offset(),
                    run.value().length()));
        }
        // Records of one key come in the order the merge met them: compare them as a set per key.
        out.sort(java.util.Comparator.comparing((String r) -> new org.apache.hadoop.io.Text(r.substring(0,
                r.indexOf('='))))
                .thenComparing(r -> r));
        return out;
    }

    @Test
    void aRootThatDoesNotKnowTheJobStopsEveryDaemon() throws Exception {
        try (EmbeddedTorus torus = EmbeddedTorus.start(FailureView.none(SHAPE), config(),
                EmbeddedTorus.Wiring.IN_JVM, 2)) {
            RootStream root = torus.service(13).startShuffle(new ShuffleSpec(22L, "job_1700000000000_0022", 0, 0,
                    new Coord(1, 1, 1), ShuffleMode.CAMDOOP, TreeChoice.SIX, new TreeSet<>()));
            StreamItem last = root.drain(30, TimeUnit.SECONDS);
            assertInstanceOf(StreamItem.Failed.class, last, last::toString);
            TorusWaits.idle(torus, s -> true, SETTLE);
            TorusWaits.noParkedStarts(torus, SETTLE);
            TorusWaits.noOpenStreams(torus, s -> true, SETTLE);
        }
    }
}
