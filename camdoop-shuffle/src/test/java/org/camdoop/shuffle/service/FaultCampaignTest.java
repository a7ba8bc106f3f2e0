package org.camdoop.shuffle.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
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
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.Port;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.TransportConfig;
import org.camdoop.torus.transport.link.ProtocolGuard;
import org.camdoop.torus.trees.TreeChoice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault campaign (docs/recovery.md): seeded runs of a shuffle on a real in-JVM torus, each crashing servers and
 * cutting links at random moments, with the combiner (camdoop) and without (noagg). Every run must end with the
 * reducer's output equal to the reference (no record lost or counted twice) or fail cleanly with one of the reasons
 * the design gives; nothing may hang or differ. The counts are printed (and quoted in docs/recovery.md). Most crashes
 * take spare servers (those without map outputs: the root repairs the trees the crash touched, or, where it cannot,
 * restarts the shuffle after the last key the reducer holds); one in
 * three takes a server holding map outputs, which die with it: the shuffle pauses, the campaign runs those maps again
 * elsewhere (the same words under new attempts: deterministic maps) as an ApplicationMaster would, and resumes it. One
 * crash in three is started again at once, mid-run, well within the failure timeout, the others after their run, and
 * each rejoins the torus (docs/recovery.md, "Rejoin"), so the next runs plan with it again. A torus serves runs until
 * no spare is left live (one taken for dead after a cut healed too late stays out); each run is a new reduce attempt.
 * {@code -Dcamdoop.campaign.runs=N} runs more.
 */
@ExtendWith(SampledLeakDetection.class)
class FaultCampaignTest {

    private static final TorusShape SHAPE = TorusShape.parse("3x3x3");
    private static final String JOB = "job_1700000000000_0041";
    private static final int REDUCERS = 2;
    /** Servers per torus that hold no map output: a crash may take them without losing map output. */
    private static final int SPARES = 8;
    private static final int RUNS = Integer.getInteger("camdoop.campaign.runs", 100);

    @TempDir
    Path dir;

    private static TransportConfig config() {
        return TransportConfig.of(Map.of(TransportConfig.CLUSTER_SECRET, "fault-campaign-secret-of-32-bytes-long",
                TransportConfig.SEGMENT_BYTES, "4096", TransportConfig.MAX_FRAME_BYTES, "8192",
                // A cut link reconnects well within the failure timeout, so cuts heal without a view change; a
                // crashed server stays down and is declared failed.
                TransportConfig.RECONNECT_INITIAL_MS, "5", TransportConfig.RECONNECT_MAX_MS, "20",
                TransportConfig.FAILURE_TIMEOUT_MS, "250",
                // Frames lost in transit on a cut link are resent end to end after two quiet ticks of 50 ms.
                TransportConfig.RETRANSMIT_TIMEOUT_MS, "100",
                // Short windows, so the trees cannot run far ahead of the root: a crashed vertex's parent is mostly
                // still taking its stream, and its subtree is rebuilt rather than found ended.
                TransportConfig.MAX_BUFFERS_PER_STREAM, "2"));
    }

    /** What one torus holds: its map outputs (none on spares) and the servers crashed in the current run. */
    private record Torus(EmbeddedTorus torus, CampaignMaps maps, List<Integer> spares,
            java.util.Set<Integer> crashed, java.util.Set<Integer> restartedAtOnce) {
    }

    private Torus start(Random rnd, int number) throws Exception {
        EmbeddedTorus torus = EmbeddedTorus.start(FailureView.none(SHAPE), config(), EmbeddedTorus.Wiring.IN_JVM, 2);
        JobConf conf = WordCounts.jobWithCombiner(REDUCERS);
        torus.registerJob(JOB, conf);
        List<Integer> spares = new ArrayList<>();
        while (spares.size() < SPARES) {
            int s = rnd.nextInt(SHAPE.size());
            if (!spares.contains(s)) {
                spares.add(s);
            }
        }
        CampaignMaps maps = new CampaignMaps(JOB, conf, torus, dir.resolve("t" + number));
        for (int server = 0; server < SHAPE.size(); server++) {
            if (!spares.contains(server)) {
                Map<String, Integer> counts = new TreeMap<>();
                // Enough that a partition's output mostly outlasts the root's bounded queue (16 chunks), so the
                // shuffle rarely ends while the reducer waits for a restart, and that a crashed vertex's parent is
                // sometimes still taking its stream.
                for (int i = 0; i < 4000; i++) {
                    String word = rnd.nextBoolean() ? "w" + rnd.nextInt(400) : "u" + server + "-" + rnd.nextInt(20000);
                    counts.merge(word, 1 + rnd.nextInt(3), Integer::sum);
                }
                maps.add(server, server, counts);
            }
        }
        return new Torus(torus, maps, spares, new java.util.HashSet<>(), new java.util.HashSet<>());
    }

    /** How runs ended. */
    private static final class Counts {
        /** Runs that ended with the reference output without a restart (no crash, or it came too late to matter). */
        int unaffected;
        /** Runs restarted whole after the last key the reducer held, that ended right. */
        int recovered;
        /** Runs whose trees the crash touched were repaired, the others running on, that ended right. */
        int repaired;
        /** Repaired runs whose repair rebuilt a subtree (not only ended the failed server's leaf streams). */
        int subtrees;
        /** Runs that paused for lost map outputs, resumed with the maps' new attempts, and ended right. */
        int resumed;
        int crashesWithOutputs;
        int mapsRunAgain;
        int cleanFailures;
        int crashes;
        int rejoins;
        int restartedAtOnce;
        int cuts;
        final List<String> failures = new ArrayList<>();
    }

    @Test
    void everyRunEndsWithTheReferenceOutputOrACleanFailure() throws Exception {
        Random rnd = new Random(20261125);
        long defectsBefore = ProtocolGuard.unexpectedFailures();
        Counts counts = new Counts();
        Torus t = null;
        int tori = 0;
        try {
            for (int run = 0; run < RUNS; run++) {
                if (t == null || crashable(t).isEmpty()) {
                    if (t != null) {
                        t.torus().close();
                    }
                    t = start(rnd, tori++);
                }
                runOne(t, rnd, run, counts);
                rejoin(t, counts);
            }
        } finally {
            if (t != null) {
                t.torus().close();
            }
        }
        String summary = RUNS + " runs on " + tori + " tori: " + counts.unaffected + " unaffected, " + counts.recovered
                + " restarted whole, " + counts.repaired + " repaired (" + counts.subtrees + " rebuilding a subtree), "
                + counts.resumed + " resumed after a pause, "
                + counts.cleanFailures + " clean failures " + counts.failures + "; " + counts.crashes
                + " crashes (" + counts.crashesWithOutputs + " with map outputs, " + counts.mapsRunAgain
                + " maps run again; " + counts.restartedAtOnce + " restarted at once, the others after their run; "
                + counts.rejoins + " seen back in every daemon's view), " + counts.cuts + " link cuts";
        System.out.println("fault campaign: " + summary);
        assertEquals(RUNS, counts.unaffected + counts.recovered + counts.repaired + counts.resumed
                + counts.cleanFailures, summary);
        // No connection closed for a failure no handler expected (a link coming up while a stream it re-announced
        // closed once threw here, and its daemon never heard the link was up).
        assertEquals(0, ProtocolGuard.unexpectedFailures() - defectsBefore, "connections closed by a defect");
        // A run fails cleanly only where the design says so: a server died with map outputs before the root heard
        // it held them, after records had passed or while some live server's report never came (the root names the
        // missing attempt at the end); daemons a cut left behind never took the START (the root names them); or the
        // root itself was taken for dead after a cut healed too late (it learns it is out of the torus).
        for (String f : counts.failures) {
            assertTrue(f.contains("map attempts missing") || f.contains("did not answer the start")
                    || f.contains("is out of the torus"), f);
        }
        assertTrue(counts.recovered + counts.repaired >= RUNS / 5 && counts.repaired >= RUNS / 10
                && counts.subtrees >= RUNS / 50 && counts.resumed >= RUNS / 10 && counts.cleanFailures <= RUNS / 5,
                summary);
    }

    /**
     * Starts the servers crashed in the last run again (unless they were restarted at once) and waits until every
     * daemon still in the torus has taken each back (a new run of its daemon connected to a neighbour): the next runs
     * plan with them, and their restarted daemons host vertices again. (A live daemon that its neighbours took for
     * dead is out, and hears of nothing.)
     */
    private static void rejoin(Torus t, Counts counts) throws Exception {
        int observer = observer(t);
        java.util.Set<Integer> back = new java.util.TreeSet<>(t.restartedAtOnce());
        back.addAll(t.crashed());
        for (int s : back) {
            if (t.crashed().contains(s)) {
                t.torus().restart(s);
            }
            List<java.util.concurrent.CompletableFuture<FailureView>> views = new ArrayList<>();
            for (int d = 0; d < SHAPE.size(); d++) {
                if (d == s || t.torus().service(observer).view().isLive(d)) {
                    views.add(t.torus().service(d).whenView(v -> v.isLive(s)));
                }
            }
            TorusWaits.await(java.util.concurrent.CompletableFuture.allOf(
                    views.toArray(java.util.concurrent.CompletableFuture[]::new)), Duration.ofSeconds(30),
                    () -> "restarted server " + SHAPE.coord(s) + " not taken back by every daemon");
            counts.rejoins++;
        }
        t.crashed().clear();
        t.restartedAtOnce().clear();
    }

    private static boolean crashed(Torus t, int server) {
        return t.crashed().contains(server);
    }

    /**
     * The spares still live as the torus sees them: not crashed, and not declared failed by a neighbour whose link to
     * it was cut and came back too late (a live server taken for dead stays out of the torus, like a crashed one).
     */
    private static List<Integer> crashable(Torus t) {
        int observer = observer(t);
        return t.spares().stream().filter(s -> !crashed(t, s) && t.torus().service(observer).view().isLive(s))
                .toList();
    }

    private void runOne(Torus t, Random rnd, int run, Counts counts) throws Exception {
        EmbeddedTorus torus = t.torus();
        List<Integer> live = new ArrayList<>();
        for (int s = 0; s < SHAPE.size(); s++) {
            if (!crashed(t, s)) {
                live.add(s);
            }
        }
        // Roots the torus still counts (a link cut that healed too late takes a live server out for good).
        List<Integer> rootsPossible = holdersInView(t, -1);
        int root = rootsPossible.get(rnd.nextInt(rootsPossible.size()));
        int partition = rnd.nextInt(REDUCERS);
        ShuffleMode mode = rnd.nextBoolean() ? ShuffleMode.CAMDOOP : ShuffleMode.NOAGG;
        // The faults: a crash (at most one per run) and up to two link cuts, each after a random number of chunks
        // reached the reducer. A crash takes a spare, or one time in three a server holding map outputs (not the
        // root: a reducer's own server is another case), whose outputs die with it.
        List<Integer> spares = crashable(t);
        List<Integer> holders = holdersInView(t, root);
        int crash = -1;
        if (rnd.nextInt(3) > 0) {
            if (rnd.nextInt(3) == 0 && holders.size() > 1) {
                crash = holders.get(rnd.nextInt(holders.size()));
            } else if (!spares.isEmpty()) {
                crash = spares.get(rnd.nextInt(spares.size()));
            }
        }
        boolean losesOutputs = crash >= 0 && !t.maps().heldBy(crash).isEmpty();
        int crashAfter = rnd.nextInt(4);
        boolean restartAtOnce = crash >= 0 && rnd.nextInt(3) == 0;
        int cuts = rnd.nextInt(3);
        List<int[]> cutAt = new ArrayList<>();
        for (int i = 0; i < cuts; i++) {
            cutAt.add(new int[] {live.get(rnd.nextInt(live.size())), rnd.nextInt(Port.values().length),
                rnd.nextInt(4)});
        }
        ShuffleSpec spec = new ShuffleSpec(41L, JOB, partition, run, SHAPE.coord(root), mode, TreeChoice.SIX,
                t.maps().attempts());
        // The root's restarts and pauses (listeners stay with the daemon: a queue per run).
        LinkedBlockingQueue<ShuffleSpec> restartsOrPauses = new LinkedBlockingQueue<>();
        torus.service(root).onRestart(restartsOrPauses::add);
        torus.service(root).onPause(restartsOrPauses::add);
        List<ShuffleSpec> generations = new java.util.concurrent.CopyOnWriteArrayList<>();
        torus.service(root).onRestart(generations::add);
        DaemonCounters.Snapshot before = torus.service(root).counters().snapshot();
        RootStream stream = torus.service(root).startShuffle(spec);
        ChunkQueueRun records = new ChunkQueueRun("run " + run);
        int chunks = 0;
        boolean crashed = false;
        boolean restarted = false;
        int pauses = 0;
        StreamItem n;
        while (true) {
            for (int[] c : cutAt) {
                if (c[2] == chunks && c[1] >= 0) {
                    torus.node(c[0]).cutLink(Port.values()[c[1]]);
                    counts.cuts++;
                    c[1] = -1;
                }
            }
            if (crash >= 0 && !crashed && chunks == crashAfter) {
                torus.crash(crash);
                crashed = true;
                counts.crashes++;
                if (losesOutputs) {
                    counts.crashesWithOutputs++;
                }
                if (restartAtOnce) {
                    // A supervisor restarts it well within the failure timeout: its neighbours see a new run connect
                    // and declare the old one failed then and there.
                    torus.restart(crash);
                    t.restartedAtOnce().add(crash);
                    counts.restartedAtOnce++;
                } else {
                    t.crashed().add(crash);
                }
                // Wait for the restart (or, for a crash that lost map outputs, the pause) before reading on: the
                // root's queue is bounded, so the shuffle rarely ends first. None is no failure by itself: the run
                // must still end right or fail cleanly.
                restarted = restartsOrPauses.poll(10, TimeUnit.SECONDS) != null;
            }
            n = stream.next(Duration.ofSeconds(60));
            if (n instanceof StreamItem.Paused p) {
                pauses++;
                resume(t, rnd, root, crash, spec, p, counts);
                continue;
            }
            if (!(n instanceof StreamItem.Chunk c)) {
                break;
            }
            records.offer(c.bytes(), c.length());
            chunks++;
        }
        rerunLost(t, rnd, crash, counts);
        String what = "run " + run + " (" + mode.label() + ", root " + SHAPE.coord(root) + ", crash "
                + (crash < 0 ? "none" : SHAPE.coord(crash) + (losesOutputs ? " with map outputs" : "") + " after "
                        + crashAfter + " chunks") + ", " + cuts + " cuts, " + pauses + " pauses)";
        if (n instanceof StreamItem.Failed f) {
            counts.cleanFailures++;
            counts.failures.add(what + ": " + f.reason());
            return;
        }
        if (!(n instanceof StreamItem.End)) {
            fail(what + ": stream stalled: " + n);
        }
        records.finish();
        SortedMap<String, Long> sums = new TreeMap<>((a, b) -> new Text(a).compareTo(new Text(b)));
        long received = 0;
        while (records.advance() == Advance.RECORD) {
            received++;
            sums.merge(WordCounts.text(records.key().array(), records.key().offset(), records.key().length()),
                    (long) WordCounts.intValue(records.value().array(), records.value().offset(),
                            records.value().length()), Long::sum);
        }
        List<Map<String, Integer>> maps = t.maps().words();
        assertEquals(WordCounts.reference(maps, partition, REDUCERS), sums, what);
        if (mode == ShuffleMode.NOAGG) {
            long expected = maps.stream().flatMap(m -> m.keySet().stream())
                    .filter(w -> WordCounts.partitionOf(w, REDUCERS) == partition).count();
            assertEquals(expected, received, what + ": records lost or duplicated");
        }
        DaemonCounters.Snapshot after = torus.service(root).counters().snapshot();
        if (pauses > 0) {
            counts.resumed++;
        } else if (restarted && after.restarts() == before.restarts() && after.repairs() > before.repairs()) {
            counts.repaired++;
            if (generations.stream().anyMatch(g -> g.generation().repair().map(r -> r.trees().length > 0)
                    .orElse(false))) {
                counts.subtrees++;
            }
        } else if (restarted) {
            counts.recovered++;
        } else {
            counts.unaffected++;
        }
    }

    /**
     * The shuffle paused for lost map outputs: as the ApplicationMaster would, runs each lost map again on a live
     * server that holds map outputs (never a spare), and resumes the shuffle with the new attempts.
     */
    private static void resume(Torus t, Random rnd, int root, int crash, ShuffleSpec spec, StreamItem.Paused paused,
            Counts counts) throws Exception {
        java.util.SortedMap<String, String> replacements = new TreeMap<>();
        List<Integer> hosts = holdersInView(t, crash);
        for (String lost : paused.lost()) {
            int map = t.maps().mapOf(lost);
            assertTrue(map >= 0, "paused for " + lost + ", which is no map's current attempt");
            int holder = t.maps().holderOf(map);
            // Its output died with the crash, or with a live server taken for dead (a cut that healed too late).
            assertTrue(holder == crash || !t.torus().service(root).view().isLive(holder),
                    "paused for " + lost + ", whose server " + SHAPE.coord(holder) + " is live");
            replacements.put(lost, t.maps().rerun(map, hosts.get(rnd.nextInt(hosts.size()))));
            counts.mapsRunAgain++;
        }
        String refused = t.torus().service(root).resume(spec, replacements, StartProof.NONE);
        // Refused only if the shuffle failed meanwhile (its stream then says why).
        assertTrue(refused == null || refused.contains("no longer runs here"), refused);
    }

    /** After a run, runs again every map whose output is gone (its server crashed, or is out of the torus). */
    private static void rerunLost(Torus t, Random rnd, int crash, Counts counts) throws Exception {
        List<Integer> hosts = holdersInView(t, crash);
        for (int map : t.maps().maps()) {
            int holder = t.maps().holderOf(map);
            if (holder == crash || !hosts.contains(holder)) {
                t.maps().rerun(map, hosts.get(rnd.nextInt(hosts.size())));
                counts.mapsRunAgain++;
            }
        }
    }

    /**
     * The servers that may hold map outputs (the torus's first holders: never a spare) and are live as the torus
     * sees them, but {@code except}.
     */
    private static List<Integer> holdersInView(Torus t, int except) {
        int observer = observer(t);
        return java.util.stream.IntStream.range(0, SHAPE.size()).boxed().filter(s -> !t.spares().contains(s)
                && s != except && !crashed(t, s) && t.torus().service(observer).view().isLive(s)).toList();
    }

    /** A daemon whose view the campaign goes by: one holding map outputs, neither crashed nor just restarted. */
    private static int observer(Torus t) {
        return java.util.stream.IntStream.range(0, SHAPE.size()).filter(s -> !t.spares().contains(s)
                && !crashed(t, s) && !t.restartedAtOnce().contains(s)).findFirst().orElseThrow();
    }
}
