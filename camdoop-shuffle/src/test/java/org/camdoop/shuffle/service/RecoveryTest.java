package org.camdoop.shuffle.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.camdoop.shuffle.aggregation.Advance;
import org.camdoop.shuffle.aggregation.ChunkQueueRun;
import org.camdoop.shuffle.daemon.EmbeddedTorus;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.protocol.StreamItem;
import org.camdoop.shuffle.service.net.StartProof;
import org.camdoop.shuffle.testing.WordCounts;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.TransportConfig;
import org.camdoop.torus.trees.TreeChoice;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Paper section 4.2 on real daemons: a server crashes in the middle of a shuffle (its links drop without a goodbye),
 * its neighbours declare it failed, the root rebuilds the trees it had children in from the last key each passed the
 * root whole (a tree repair), or restarts the whole shuffle without it from the last key the reducer received whole,
 * and the reducer gets exactly the reference: no record lost or counted twice. The crashed server holds no map
 * output of the job, as in the paper's Figure 9 runs (a lost map output is FailureCleanupTest's case).
 */
@ExtendWith(SampledLeakDetection.class)
class RecoveryTest {

    private static final String JOB = "job_1700000000000_0031";
    private static final TorusShape SHAPE = TorusShape.parse("3x3x3");
    private static final int REDUCERS = 2;

    @TempDir
    Path dir;

    private static TransportConfig config() {
        return config(100);
    }

    private static TransportConfig config(int failureTimeoutMs) {
        return TransportConfig.of(Map.of(TransportConfig.CLUSTER_SECRET, "recovery-test-secret-of-32-bytes-long",
                TransportConfig.SEGMENT_BYTES, "4096", TransportConfig.MAX_FRAME_BYTES, "8192",
                // Slow links, so the shuffle is still running when the server dies; quick failure detection.
                TransportConfig.SHAPING_BYTES_PER_SECOND, "400000", TransportConfig.SHAPING_BURST_BYTES, "8192",
                TransportConfig.FAILURE_TIMEOUT_MS, Integer.toString(failureTimeoutMs),
                // Short windows, so no vertex has sent all it had long before the root took it: a crashed vertex's
                // parent is still taking its stream, and a repair rebuilds its subtree.
                TransportConfig.MAX_BUFFERS_PER_STREAM, "2"));
    }

    /** Map outputs on every server but {@code without}: words shared across servers (combinable) and unique ones. */
    private TorusWordCounts write(EmbeddedTorus torus, JobConf conf, List<Integer> without) throws Exception {
        return TorusWordCounts.write(torus, dir, JOB, conf, s -> !without.contains(s), 31, 12000, 2000);
    }

    /** The reducer's view: per word the sum of its values, and the records that arrived. */
    private record Received(SortedMap<String, Long> sums, long records, StreamItem last) {
    }

    /**
     * Reads the root stream, crashing {@code victims} in turn once {@code afterChunks} chunks each arrived. After a
     * crash the reducer reads on only once the root restarted the shuffle: its stream is bounded, so the shuffle
     * cannot end first, whatever the victim had already sent.
     */
    private static Received receive(EmbeddedTorus torus, RootStream root, List<Integer> victims, int afterChunks)
            throws Exception {
        java.util.concurrent.LinkedBlockingQueue<ShuffleSpec> restarts = new java.util.concurrent.LinkedBlockingQueue<>();
        torus.service(0).onRestart(restarts::add);
        int[] crashed = {0};
        Received got = receive(root, chunks -> {
            if (crashed[0] < victims.size() && chunks == afterChunks * (crashed[0] + 1)) {
                torus.crash(victims.get(crashed[0]++));
                ShuffleSpec next = restarts.poll(30, java.util.concurrent.TimeUnit.SECONDS);
                assertEquals(crashed[0], next == null ? 0 : next.generation().number(), "no restart within 30 s");
            }
        });
        assertEquals(victims.size(), crashed[0], "the shuffle ended before every victim crashed");
        return got;
    }

    /** Told the number of chunks received so far after each one. */
    private interface AfterChunk {
        void received(int chunks) throws Exception;
    }

    /** Reads the root stream to its end, calling {@code afterChunk} after each chunk. */
    private static Received receive(RootStream root, AfterChunk afterChunk) throws Exception {
        ChunkQueueRun records = new ChunkQueueRun("reducer");
        int chunks = 0;
        StreamItem n;
        while ((n = root.next(Duration.ofSeconds(60))) instanceof StreamItem.Chunk c) {
            records.offer(c.bytes(), c.length());
            afterChunk.received(++chunks);
        }
        records.finish();
        SortedMap<String, Long> sums = new TreeMap<>((a, b) -> new Text(a).compareTo(new Text(b)));
        long count = 0;
        String previous = null;
        while (records.advance() == Advance.RECORD) {
            count++;
            String key = WordCounts.text(records.key().array(), records.key().offset(), records.key().length());
            assertTrue(previous == null || new Text(previous).compareTo(new Text(key)) <= 0, "out of order at " + key);
            previous = key;
            sums.merge(key, (long) WordCounts.intValue(records.value().array(), records.value().offset(),
                    records.value().length()), Long::sum);
        }
        return new Received(sums, count, n);
    }

    /**
     * {@code proved}: every daemon admits only STARTs carrying a job token proof, as daemons holding the job's token
     * do on a cluster, and the reduce task proved one; each restarted generation's START must carry it too.
     * {@code repairs}: how many of the crashes the root answers with a tree repair, the others with a whole restart.
     * A repair takes only a server that held no map output and is not a neighbour of the root, once per generation, in
     * tree mode: the second crash of a shuffle, a neighbour's (1,0,0), and any in direct mode, restart it whole.
     */
    @ParameterizedTest(name = "{0}: crash {1} after {2} chunks, proof checked {3}")
    @CsvSource(delimiter = ';', value = {
        "camdoop;1,1,1;1;true;1", "noagg;1,1,1;4;false;1", "noagg;1,0,0;1;false;0", "camdoop;1,0,0;0;false;0",
        "direct;2,2,1;0;false;0", "noagg;1,1,1 2,1,1;2;true;1"})
    void theReducerGetsExactlyTheReferenceWhenServersCrashMidShuffle(String mode, String victims, int afterChunks,
            boolean proved, int repairs) throws Exception {
        List<Integer> dead = java.util.Arrays.stream(victims.split(" ")).map(v -> SHAPE.index(Coord.parse(v)))
                .toList();
        try (EmbeddedTorus torus = EmbeddedTorus.start(FailureView.none(SHAPE), config(),
                EmbeddedTorus.Wiring.IN_JVM, 2)) {
            TorusWordCounts job = write(torus, WordCounts.jobWithCombiner(REDUCERS), dead);
            ShuffleSpec spec = new ShuffleSpec(31L, JOB, 1, 0, new Coord(0, 0, 0), ShuffleMode.parse(mode),
                    TreeChoice.SIX, job.attempts());
            StartProof proof = StartProof.NONE;
            if (proved) {
                proof = new StartProof(new byte[] {1, 2, 3}, new byte[] {4, 5, 6});
                for (int s = 0; s < SHAPE.size(); s++) {
                    torus.service(s).checkStartsWith((started, carried) -> carried.isNone()
                            ? "it carries no job token proof" : null);
                }
            }
            List<ShuffleSpec> generations = new java.util.concurrent.CopyOnWriteArrayList<>();
            torus.service(0).onRestart(generations::add);
            RootStream root = torus.service(0).startShuffle(spec, proof);
            if (afterChunks == 0) {
                torus.crash(dead.get(0)); // before the reducer received anything: the restart begins at the start
            }
            Received got = receive(torus, root, afterChunks == 0 ? List.of() : dead, afterChunks);

            assertExactlyTheReference(job, mode, got);
            DaemonCounters.Snapshot rootCounts = torus.service(0).counters().snapshot();
            assertEquals(dead.size(), rootCounts.restarts() + rootCounts.repairs());
            assertEquals(repairs, rootCounts.repairs(), "tree repairs");
            assertEquals(repairs, rebuildingSubtrees(generations), "repairs that rebuilt a subtree");
            TorusWaits.idle(torus, s -> !dead.contains(s), Duration.ofSeconds(20));
            TorusWaits.noOpenStreams(torus, s -> !dead.contains(s), Duration.ofSeconds(20));
        }
    }

    /**
     * A shuffle that starts with a server already out of the view (its generation is planned without it, its vertices
     * adopted by their parents: on a cluster, a server not yet replaced) is repaired too when another server without
     * map outputs crashes: the trees rebuilt are those in which the crashed server ran a vertex with children, its own
     * or one it adopted (1,1,2's parent in some trees is 1,1,1). The reducer gets exactly the reference.
     */
    @ParameterizedTest(name = "{0}: {1} out before the start, crash {2}")
    @CsvSource(delimiter = ';', value = {"camdoop;2,2,2;1,1,1", "noagg;1,1,2;1,1,1", "camdoop;1,1,2;1,1,1"})
    void aGenerationPlannedWithoutAServerIsRepairedToo(String mode, String out, String crashed) throws Exception {
        int gone = SHAPE.index(Coord.parse(out));
        int victim = SHAPE.index(Coord.parse(crashed));
        try (EmbeddedTorus torus = EmbeddedTorus.start(FailureView.none(SHAPE), config(),
                EmbeddedTorus.Wiring.IN_JVM, 2)) {
            TorusWordCounts job = write(torus, WordCounts.jobWithCombiner(REDUCERS), List.of(gone, victim));
            torus.crash(gone);
            List<java.util.concurrent.CompletableFuture<FailureView>> views = new java.util.ArrayList<>();
            for (int s = 0; s < SHAPE.size(); s++) {
                if (s != gone) {
                    views.add(torus.service(s).whenView(v -> v.isFailed(gone)));
                }
            }
            TorusWaits.await(java.util.concurrent.CompletableFuture.allOf(
                    views.toArray(java.util.concurrent.CompletableFuture[]::new)), Duration.ofSeconds(30),
                    () -> "not every daemon holds " + out + " failed");
            ShuffleSpec spec = new ShuffleSpec(31L, JOB, 1, 0, new Coord(0, 0, 0), ShuffleMode.parse(mode),
                    TreeChoice.SIX, job.attempts());
            List<ShuffleSpec> generations = new java.util.concurrent.CopyOnWriteArrayList<>();
            torus.service(0).onRestart(generations::add);
            RootStream root = torus.service(0).startShuffle(spec);
            Received got = receive(torus, root, List.of(victim), 1);

            assertExactlyTheReference(job, mode, got);
            DaemonCounters.Snapshot rootCounts = torus.service(0).counters().snapshot();
            assertEquals(1, rootCounts.repairs(), "tree repairs");
            assertEquals(0, rootCounts.restarts(), "whole restarts");
            assertEquals(1, rebuildingSubtrees(generations), "repairs that rebuilt a subtree");
            TorusWaits.idle(torus, s -> s != gone && s != victim, Duration.ofSeconds(20));
            TorusWaits.noOpenStreams(torus, s -> s != gone && s != victim, Duration.ofSeconds(20));
        }
    }

    /**
     * A daemon refuses the repair's START (here by its start check; on a cluster, say, a full buffer budget): the
     * trees it was to rebuild would never end, so the root restarts the whole shuffle from the last key the reducer
     * holds, and the reducer still gets exactly the reference, with one repair and one restart counted.
     */
    @org.junit.jupiter.api.Test
    void aRepairThatADaemonRefusesRestartsTheShuffleWhole() throws Exception {
        int victim = SHAPE.index(new Coord(1, 1, 1));
        try (EmbeddedTorus torus = EmbeddedTorus.start(FailureView.none(SHAPE), config(),
                EmbeddedTorus.Wiring.IN_JVM, 2)) {
            TorusWordCounts job = write(torus, WordCounts.jobWithCombiner(REDUCERS), List.of(victim));
            ShuffleSpec spec = new ShuffleSpec(31L, JOB, 1, 0, new Coord(0, 0, 0), ShuffleMode.CAMDOOP,
                    TreeChoice.SIX, job.attempts());
            torus.service(SHAPE.index(new Coord(2, 2, 2))).checkStartsWith((started, proof) ->
                    started.generation().repair().isPresent() ? "this daemon takes no repair" : null);
            RootStream root = torus.service(0).startShuffle(spec);
            java.util.concurrent.LinkedBlockingQueue<ShuffleSpec> generations =
                    new java.util.concurrent.LinkedBlockingQueue<>();
            torus.service(0).onRestart(generations::add);
            Received got = receive(root, chunks -> {
                if (chunks == 1) {
                    torus.crash(victim);
                    ShuffleSpec repair = generations.poll(30, java.util.concurrent.TimeUnit.SECONDS);
                    assertTrue(repair != null && repair.generation().repair().isPresent(), "no repair: " + repair);
                    ShuffleSpec whole = generations.poll(30, java.util.concurrent.TimeUnit.SECONDS);
                    assertTrue(whole != null && whole.generation().repair().isEmpty()
                            && whole.generation().number() == 2, "no whole restart after the refusal: " + whole);
                }
            });

            assertExactlyTheReference(job, "camdoop", got);
            DaemonCounters.Snapshot rootCounts = torus.service(0).counters().snapshot();
            assertEquals(1, rootCounts.repairs());
            assertEquals(1, rootCounts.restarts());
            TorusWaits.idle(torus, s -> s != victim, Duration.ofSeconds(20));
            TorusWaits.noOpenStreams(torus, s -> s != victim, Duration.ofSeconds(20));
        }
    }

    /** Repair generations among {@code generations} that rebuild at least one subtree (not only end leaf streams). */
    private static long rebuildingSubtrees(List<ShuffleSpec> generations) {
        return generations.stream().filter(g -> g.generation().repair().map(r -> r.trees().length > 0)
                .orElse(false)).count();
    }

    private static void assertExactlyTheReference(TorusWordCounts job, String mode, Received got) {
        assertInstanceOf(StreamItem.End.class, got.last(), got.last()::toString);
        assertEquals(WordCounts.reference(job.maps(), 1, REDUCERS), got.sums());
        assertEquals(job.attempts(), ((StreamItem.End) got.last()).end().attempts().attempts());
        if (!mode.equals("camdoop")) {
            // Nothing is combined: every map record arrives exactly once.
            long mapRecords = job.maps().stream().flatMap(m -> m.keySet().stream())
                    .filter(w -> WordCounts.partitionOf(w, REDUCERS) == 1).count();
            assertEquals(mapRecords, got.records());
        }
    }

    /**
     * A cable between two live servers is pulled out mid-shuffle and stays out: both ends route around it after half
     * the failure timeout, ask each other along the new route whether they are alive, get an answer, and so declare
     * nobody failed. Every daemon learns the cut and routes around it, the streams that crossed the link resume on the
     * longer path, and the shuffle completes with exactly the reference and no restart. (On the testbed a cut link
     * made both ends declare each other failed, for good.) The link chosen is the root's own, which every tree's
     * traffic towards the root may cross.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"noagg", "camdoop"})
    void aLinkCutForLongerThanTheFailureTimeoutIsRoutedAroundWithoutDeclaringAnyoneFailed(String mode)
            throws Exception {
        // A longer timeout than the crash cases: a probe's answer must come back within its second half (500 ms).
        try (EmbeddedTorus torus = EmbeddedTorus.start(FailureView.none(SHAPE), config(1000),
                EmbeddedTorus.Wiring.IN_JVM, 2)) {
            TorusWordCounts job = write(torus, WordCounts.jobWithCombiner(REDUCERS), List.of());
            int root = 0;
            int far = SHAPE.index(new Coord(1, 0, 0));
            java.util.concurrent.atomic.AtomicBoolean cut = new java.util.concurrent.atomic.AtomicBoolean();
            torus.node(root).addListener(new org.camdoop.torus.transport.TransportListener() {
                @Override
                public void linkCut(org.camdoop.torus.topology.Port port, Coord peer) {
                    cut.set(true);
                }
            });
            RootStream stream = torus.service(root).startShuffle(new ShuffleSpec(31L, JOB, 1, 0, SHAPE.coord(root),
                    ShuffleMode.parse(mode), TreeChoice.SIX, job.attempts()));
            int[] afterCut = {0};
            Received got = receive(stream, chunks -> {
                if (chunks == 1) {
                    Duration hold = Duration.ofSeconds(30); // longer than the test: the link never comes back
                    torus.node(root).cutLink(SHAPE.portTo(root, far), hold);
                    torus.node(far).cutLink(SHAPE.portTo(far, root), hold);
                } else if (cut.get()) {
                    afterCut[0]++;
                }
            });

            assertExactlyTheReference(job, mode, got);
            assertTrue(afterCut[0] > 0, "the shuffle ended before the cut was routed around: it tested nothing");
            assertEquals(0, torus.service(root).counters().snapshot().restarts(), "a cut link restarted the shuffle");
            for (int s = 0; s < SHAPE.size(); s++) {
                FailureView view = torus.service(s).view();
                assertEquals(0, view.down().cardinality(), "daemon " + SHAPE.coord(s) + " took a live server for "
                        + "failed: " + view);
                assertTrue(view.isCut(root, far), "daemon " + SHAPE.coord(s) + " does not route around the cut");
            }
            // What /metrics and status.json show for it (camdoop_link_routed_around).
            assertTrue(torus.node(root).linkStates().stream().anyMatch(l -> l.peer().equals(SHAPE.coord(far))
                    && l.routedAround()), torus.node(root).linkStates()::toString);
            TorusWaits.idle(torus, s -> true, Duration.ofSeconds(20));
            TorusWaits.noOpenStreams(torus, s -> true, Duration.ofSeconds(20));
        }
    }

    /**
     * A reduce task asks its daemon to root a shuffle while a neighbour of it has just died: the daemon waits for its
     * links to live neighbours, and the dead link being routed around (half the failure timeout) or the failure being
     * declared, during that wait, ends it (on the testbed the wait ran to its 10 s timeout and the reduce fell back to
     * the stock shuffle).
     */
    @org.junit.jupiter.api.Test
    void aWaitForTheLinksEndsWhenTheDeadNeighboursLinkIsRoutedAround() throws Exception {
        try (EmbeddedTorus torus = EmbeddedTorus.start(FailureView.none(SHAPE), config(),
                EmbeddedTorus.Wiring.IN_JVM, 2)) {
            int neighbour = SHAPE.index(new Coord(1, 0, 0));
            java.util.concurrent.CompletableFuture<Void> down = new java.util.concurrent.CompletableFuture<>();
            torus.node(0).addListener(new org.camdoop.torus.transport.TransportListener() {
                @Override
                public void linkDown(org.camdoop.torus.topology.Port port, Coord peer, String reason) {
                    if (peer.equals(SHAPE.coord(neighbour))) {
                        down.complete(null);
                    }
                }
            });
            torus.crash(neighbour);
            down.get(30, java.util.concurrent.TimeUnit.SECONDS);
            CamdoopService root = torus.service(0);
            // The link is down and (with a 100 ms failure timeout) the failure not yet declared, or only just.
            assertTrue(torus.node(0).awaitLinksUp(root::view, Duration.ofSeconds(60)),
                    "links of 0,0,0 not ready although the link to its dead neighbour is routed around");
            assertTrue(root.view().isCut(0, neighbour) || root.view().isFailed(neighbour),
                    "the wait ended while the dead link was neither routed around nor its server declared failed");
        }
    }
}
