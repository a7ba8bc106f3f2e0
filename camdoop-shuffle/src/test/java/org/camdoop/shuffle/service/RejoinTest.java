package org.camdoop.shuffle.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import org.apache.hadoop.io.Text;
import org.camdoop.shuffle.aggregation.Advance;
import org.camdoop.shuffle.daemon.EmbeddedTorus;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.protocol.StreamItem;
import org.camdoop.shuffle.service.net.MembershipMessages;
import org.camdoop.shuffle.testing.WordCounts;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.LinkState;
import org.camdoop.torus.transport.TransportConfig;
import org.camdoop.torus.transport.wire.StreamId;
import org.camdoop.torus.trees.TreeChoice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A daemon killed, declared failed by every other daemon, then started again (as an operator or the NodeManager
 * restarts a process) rejoins the torus: its neighbours see a larger incarnation in the handshake, every daemon takes
 * it back into its view and uses its links again, the restarted daemon learns the failures and cuts of the view from
 * its neighbours, and shuffles afterwards read its map outputs, through trees rooted elsewhere and rooted on it.
 * Before rejoin existed it stayed out of every other daemon's view until they all restarted.
 */
class RejoinTest {

    private static final TorusShape SHAPE = TorusShape.parse("3x3x3");
    private static final int REDUCERS = 2;
    private static final Duration BOUND = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private static TransportConfig config() {
        return TransportConfig.of(Map.of(TransportConfig.CLUSTER_SECRET, "rejoin-test-secret-of-32-bytes-long!",
                TransportConfig.SEGMENT_BYTES, "4096", TransportConfig.MAX_FRAME_BYTES, "8192",
                TransportConfig.FAILURE_TIMEOUT_MS, "200",
                // Neighbours redial a dead daemon every 100 ms at most, so they find the new run at once.
                TransportConfig.RECONNECT_MAX_MS, "100",
                // Links that stood this long are probed at once by their accepting end when they drop, and redialled
                // after this long by the other, so a crash soon after
                // the torus started is declared within a round trip, as on a cluster whose links stood for long.
                TransportConfig.RECONNECT_INITIAL_MS, "10"));
    }

    @Test
    void aRestartedDaemonRejoinsEveryViewAndItsMapOutputsAreShuffledAgain() throws Exception {
        int victim = SHAPE.index(new Coord(1, 1, 1));
        int elsewhere = SHAPE.index(new Coord(2, 0, 2)); // failed and never restarted: stays out
        try (EmbeddedTorus torus = EmbeddedTorus.start(FailureView.none(SHAPE), config(),
                EmbeddedTorus.Wiring.IN_JVM, 2)) {
            long firstRun = torus.node(victim).incarnation();
            torus.crash(victim);
            torus.crash(elsewhere);
            awaitViews(torus, s -> s != victim && s != elsewhere,
                    v -> v.isFailed(victim) && v.isFailed(elsewhere), "both crashed servers declared failed");

            torus.restart(victim);
            assertTrue(torus.node(victim).incarnation() > firstRun, "a restarted daemon takes a larger incarnation");
            awaitViews(torus, s -> s != elsewhere, v -> v.isLive(victim) && v.isFailed(elsewhere)
                    && v.down().cardinality() == 1 && cutsOnlyTo(v, elsewhere),
                    "the restarted server live again, the other one still failed, no link but the dead one's cut");
            for (int s = 0; s < SHAPE.size(); s++) {
                if (s == elsewhere) {
                    continue;
                }
                assertEquals(s == victim ? 0 : 1, torus.service(s).counters().snapshot().rejoins(),
                        "camdoop_rejoins_total of " + SHAPE.coord(s));
                for (LinkState l : torus.node(s).linkStates()) {
                    assertEquals(l.peer().equals(SHAPE.coord(elsewhere)), l.routedAround(),
                            SHAPE.coord(s) + " routes around the link to " + l.peer() + " (or not): " + l);
                }
            }

            TorusWordCounts job = TorusWordCounts.write(torus, dir, JOB, WordCounts.jobWithCombiner(REDUCERS),
                    s -> s != elsewhere, 41, 500, 300);
            for (int root : new int[] {0, victim}) {
                ShuffleSpec spec = new ShuffleSpec(41L + root, JOB, 1, 0, SHAPE.coord(root), ShuffleMode.CAMDOOP,
                        TreeChoice.SIX, job.attempts());
                TorusWaits.Drained got = TorusWaits.drainAll(List.of(torus.service(root).startShuffle(spec)), BOUND)
                        .get(0);
                assertInstanceOf(StreamItem.End.class, got.last(), got.last()::toString);
                assertEquals(job.attempts(), ((StreamItem.End) got.last()).end().attempts().attempts(),
                        "every map output was read, the restarted server's too (root " + SHAPE.coord(root) + ")");
                assertEquals(WordCounts.reference(job.maps(), 1, REDUCERS), sums(got),
                        "root " + SHAPE.coord(root));
                assertEquals(0, torus.service(root).counters().snapshot().restarts());
            }
            TorusWaits.idle(torus, s -> s != elsewhere, BOUND);
            TorusWaits.noOpenStreams(torus, s -> s != elsewhere, BOUND);
        }
    }

    /**
     * A daemon killed mid-shuffle and restarted at once, long before its failure timeout (a supervisor restarting it):
     * its neighbours' links come up to a new run of it, so the run that hosted the shuffle's vertices is dead, and they
     * declare it failed then and there. The root restarts the shuffle, and the reducer gets exactly the reference.
     * Before, the links coming back cancelled the suspicion, nobody declared anything, and the shuffle waited for good
     * on streams of vertices that died with the old run.
     */
    @Test
    void aDaemonRestartedBeforeItsFailureTimeoutHasItsEarlierRunsWorkRedone() throws Exception {
        int victim = SHAPE.index(new Coord(1, 1, 1)); // not the root's neighbour: it hears of the restart second-hand
        TransportConfig slow = TransportConfig.of(Map.of(TransportConfig.CLUSTER_SECRET,
                "rejoin-test-secret-of-32-bytes-long!", TransportConfig.SEGMENT_BYTES, "4096",
                TransportConfig.MAX_FRAME_BYTES, "8192", TransportConfig.RECONNECT_MAX_MS, "100",
                // Slow links, so the shuffle still runs at the crash; a failure timeout it never reaches.
                TransportConfig.SHAPING_BYTES_PER_SECOND, "400000", TransportConfig.SHAPING_BURST_BYTES, "8192",
                TransportConfig.FAILURE_TIMEOUT_MS, "60000"));
        try (EmbeddedTorus torus = EmbeddedTorus.start(FailureView.none(SHAPE), slow, EmbeddedTorus.Wiring.IN_JVM,
                2)) {
            TorusWordCounts job = TorusWordCounts.write(torus, dir, JOB, WordCounts.job(REDUCERS),
                    s -> s != victim, 42, 2000, 1000);
            java.util.concurrent.LinkedBlockingQueue<ShuffleSpec> restarts =
                    new java.util.concurrent.LinkedBlockingQueue<>();
            torus.service(0).onRestart(restarts::add);
            RootStream root = torus.service(0).startShuffle(new ShuffleSpec(43L, JOB, 1, 0, SHAPE.coord(0),
                    ShuffleMode.NOAGG, TreeChoice.SIX, job.attempts()));
            org.camdoop.shuffle.aggregation.ChunkQueueRun records =
                    new org.camdoop.shuffle.aggregation.ChunkQueueRun("reducer");
            StreamItem n = root.next(Duration.ofSeconds(60));
            assertInstanceOf(StreamItem.Chunk.class, n, n::toString);
            records.offer(((StreamItem.Chunk) n).bytes(), ((StreamItem.Chunk) n).length());
            torus.crash(victim);
            torus.restart(victim);
            assertTrue(restarts.poll(30, java.util.concurrent.TimeUnit.SECONDS) != null,
                    "the root did not restart the shuffle within 30 s of the daemon's restart");
            while ((n = root.next(Duration.ofSeconds(60))) instanceof StreamItem.Chunk c) {
                records.offer(c.bytes(), c.length());
            }
            assertInstanceOf(StreamItem.End.class, n, n::toString);
            records.finish();
            long expected = job.maps().stream().flatMap(m -> m.keySet().stream())
                    .filter(w -> WordCounts.partitionOf(w, REDUCERS) == 1).count();
            long received = 0;
            while (records.advance() == Advance.RECORD) {
                received++;
            }
            assertEquals(expected, received, "records lost or counted twice");
            awaitViews(torus, s -> true, v -> v.isLive(victim) && v.cutLinkCount() == 0,
                    "the restarted server live, no link routed around");
        }
    }

    /**
     * The news that an earlier run of a server ended can reach a daemon after it learned that a later run of that
     * server is up (reports overtake one another on their ways through the torus). It concerns nothing planned since:
     * the shuffle the daemon roots, planned when it knew the later run, is not restarted, and its vertices of a shuffle
     * rooted on the later run are not stopped (a START names its root's run). Before, the first was restarted for
     * nothing (a generation of work thrown away) and the second was stopped here, failing its reduce.
     */
    @Test
    void aLateReportOfAnEndedRunStopsNothingPlannedWithTheRunAfterIt() throws Exception {
        int root = SHAPE.index(new Coord(0, 0, 0));
        int restarted = SHAPE.index(new Coord(1, 0, 0)); // the root's neighbour: their link shows the root its run
        int reporter = SHAPE.index(new Coord(0, 1, 0));
        try (EmbeddedTorus torus = EmbeddedTorus.start(FailureView.none(SHAPE), config(), EmbeddedTorus.Wiring.IN_JVM,
                2)) {
            long run = torus.node(restarted).incarnation();
            DaemonView rootView = torus.service(root).views();
            awaitCondition(() -> rootView.knownRuns()[restarted] == run, "the root takes in its link to "
                    + SHAPE.coord(restarted));
            TorusWordCounts job = TorusWordCounts.write(torus, dir, JOB, WordCounts.jobWithCombiner(REDUCERS),
                    s -> true, 44, 20_000, 1000);
            List<RootStream> streams = new ArrayList<>();
            for (int r : new int[] {root, restarted}) {
                streams.add(torus.service(r).startShuffle(new ShuffleSpec(44L + r, JOB, 1, 0, SHAPE.coord(r),
                        ShuffleMode.CAMDOOP, TreeChoice.SIX, job.attempts())));
            }
            // Both under way, and held there: nobody reads their reducers' streams until the report was taken in.
            List<StreamItem> first = new ArrayList<>();
            for (RootStream stream : streams) {
                first.add(stream.next(BOUND));
                assertInstanceOf(StreamItem.Chunk.class, first.get(first.size() - 1));
            }
            // What a neighbour of the restarted server reports when its link comes up to the later run: the run before.
            torus.node(reporter).sendService(SHAPE.coord(root), new StreamId(0, 0, ControlTrees.CONTROL, reporter),
                    Unpooled.wrappedBuffer(MembershipMessages.serverDown(
                            new MembershipMessages.ServerRun(restarted, run - 1))));
            awaitCondition(() -> rootView.declaredRun(restarted) == run - 1, "the root takes in the report");
            assertTrue(torus.service(root).view().isLive(restarted), "a later run is up: the server stays in");

            for (int i = 0; i < streams.size(); i++) {
                org.camdoop.shuffle.aggregation.ChunkQueueRun records =
                        new org.camdoop.shuffle.aggregation.ChunkQueueRun("reducer " + i);
                StreamItem n = first.get(i);
                while (n instanceof StreamItem.Chunk c) {
                    records.offer(c.bytes(), c.length());
                    n = streams.get(i).next(BOUND);
                }
                assertInstanceOf(StreamItem.End.class, n, n::toString);
                records.finish();
                assertEquals(WordCounts.reference(job.maps(), 1, REDUCERS), sums(new TorusWaits.Drained(n, records)),
                        "root " + SHAPE.coord(i == 0 ? root : restarted));
            }
            assertEquals(0, torus.service(root).counters().snapshot().restarts(),
                    "the root restarted a shuffle planned when the later run was known");
            assertEquals(0, torus.service(restarted).counters().snapshot().restarts());
        }
    }

    private static void awaitCondition(java.util.function.BooleanSupplier condition, String what)
            throws InterruptedException {
        // No event tells of these (they change no failure view): polled, within the bound.
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, what + ": not within " + BOUND);
            Thread.sleep(1);
        }
    }

    /** Every link the view routes around has {@code dead} at one end. */
    private static boolean cutsOnlyTo(FailureView v, int dead) {
        for (int a = 0; a < SHAPE.size(); a++) {
            for (int b = a + 1; b < SHAPE.size(); b++) {
                if (SHAPE.portTo(a, b) != null && v.isCut(a, b) && a != dead && b != dead) {
                    return false;
                }
            }
        }
        return true;
    }

    private static void awaitViews(EmbeddedTorus torus, java.util.function.IntPredicate which,
            Predicate<FailureView> condition, String what) throws Exception {
        List<CompletableFuture<FailureView>> views = new ArrayList<>();
        for (int s = 0; s < SHAPE.size(); s++) {
            if (which.test(s)) {
                views.add(torus.service(s).whenView(condition));
            }
        }
        TorusWaits.await(CompletableFuture.allOf(views.toArray(CompletableFuture[]::new)), BOUND, () -> {
            StringBuilder b = new StringBuilder("not every daemon's view has " + what + ":");
            for (int s = 0; s < SHAPE.size(); s++) {
                if (which.test(s) && !condition.test(torus.service(s).view())) {
                    b.append(' ').append(SHAPE.coord(s)).append(' ').append(torus.service(s).view());
                }
            }
            return b.toString();
        });
        for (int s = 0; s < SHAPE.size(); s++) {
            FailureView v = torus.service(s).view();
            assertFalse(which.test(s) && !condition.test(v), SHAPE.coord(s) + ": " + what + ", later: " + v);
        }
    }

    private static final String JOB = "job_1700000000000_0041";

    private static SortedMap<String, Long> sums(TorusWaits.Drained got) throws Exception {
        SortedMap<String, Long> sums = new TreeMap<>((a, b) -> new Text(a).compareTo(new Text(b)));
        while (got.records().advance() == Advance.RECORD) {
            String key = WordCounts.text(got.records().key().array(), got.records().key().offset(),
                    got.records().key().length());
            sums.merge(key, (long) WordCounts.intValue(got.records().value().array(),
                    got.records().value().offset(), got.records().value().length()), Long::sum);
        }
        return sums;
    }
}
