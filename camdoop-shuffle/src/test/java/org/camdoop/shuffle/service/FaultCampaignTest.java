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
import org.camdoop.shuffle.service.vertex.LocalMapOutput;
import org.camdoop.shuffle.testing.WordCounts;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.Port;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.TransportConfig;
import org.camdoop.torus.trees.TreeChoice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault campaign (docs/recovery.md): seeded runs of a shuffle on a real in-JVM torus, each crashing servers and
 * cutting links at random moments, with the combiner (camdoop) and without (noagg). Every run must end with the
 * reducer's output equal to the reference (no record lost or counted twice) or fail cleanly with one of the reasons
 * the design gives; nothing may hang or differ. The counts are printed (and quoted in docs/recovery.md). Crashes take
 * spare servers (those without map outputs, which a crash may take without losing data); one in three is started
 * again at once, mid-run, well within the failure timeout, the others after their run, and each rejoins the torus
 * (docs/recovery.md, "Rejoin"), so the next runs plan with it again. A
 * torus serves runs until no spare is left live (one taken for dead after a cut healed too late stays out); each run
 * is a new reduce attempt. {@code -Dcamdoop.campaign.runs=N} runs more.
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
                TransportConfig.RETRANSMIT_TIMEOUT_MS, "100"));
    }

    /** What one torus holds: per server its map output's words (none on spares), and the live servers. */
    private record Torus(EmbeddedTorus torus, List<Map<String, Integer>> maps, List<Integer> spares,
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
        List<Map<String, Integer>> maps = new ArrayList<>();
        for (int server = 0; server < SHAPE.size(); server++) {
            Map<String, Integer> counts = new TreeMap<>();
            if (!spares.contains(server)) {
                // Enough that a partition's output mostly outlasts the root's bounded queue (16 chunks), so the
                // shuffle rarely ends while the reducer waits for a restart.
                for (int i = 0; i < 1000; i++) {
                    String word = rnd.nextBoolean() ? "w" + rnd.nextInt(400) : "u" + server + "-" + rnd.nextInt(5000);
                    counts.merge(word, 1 + rnd.nextInt(3), Integer::sum);
                }
                String attempt = attempt(server);
                Path t = dir.resolve("t" + number);
                java.nio.file.Files.createDirectories(t);
                org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(t.resolve(attempt + ".out").toString());
                org.apache.hadoop.fs.Path index = new org.apache.hadoop.fs.Path(t.resolve(attempt + ".idx").toString());
                WordCounts.write(conf, file, index, counts);
                torus.addMapOutput(server, JOB, new LocalMapOutput(attempt, file, index));
            }
            maps.add(counts);
        }
        return new Torus(torus, maps, spares, new java.util.HashSet<>(), new java.util.HashSet<>());
    }

    private static String attempt(int server) {
        return String.format("attempt_1700000000000_0041_m_%06d_0", server);
    }

    /** How runs ended. */
    private static final class Counts {
        /** Runs that ended with the reference output without a restart (no crash, or it came too late to matter). */
        int unaffected;
        int recovered;
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
                + " recovered, " + counts.cleanFailures + " clean failures " + counts.failures + "; " + counts.crashes
                + " crashes (" + counts.restartedAtOnce + " restarted at once, the others after their run; "
                + counts.rejoins + " seen back in every daemon's view), " + counts.cuts + " link cuts";
        System.out.println("fault campaign: " + summary);
        assertEquals(RUNS, counts.unaffected + counts.recovered + counts.cleanFailures, summary);
        // Crashes take spares only. A run fails cleanly only where the design says so: a live server whose link was
        // cut and came back after the failure timeout is taken for dead, and its map output with it (the root names
        // the missing attempt), the daemons it cut off never took the START (the root names them), or it was the
        // root itself (it learns it is out of the torus).
        for (String f : counts.failures) {
            assertTrue(f.contains("map attempts missing") || f.contains("did not answer the start")
                    || f.contains("is out of the torus"), f);
        }
        assertTrue(counts.recovered >= RUNS / 3 && counts.cleanFailures <= RUNS / 5, summary);
    }

    /**
     * Starts the servers crashed in the last run again (unless they were restarted at once) and waits until every
     * daemon still in the torus has taken each back (a new run of its daemon connected to a neighbour): the next runs
     * plan with them, and their restarted daemons host vertices again. (A live daemon that its neighbours took for
     * dead is out, and hears of nothing.)
     */
    private static void rejoin(Torus t, Counts counts) throws Exception {
        int observer = java.util.stream.IntStream.range(0, SHAPE.size()).filter(s -> !t.spares().contains(s))
                .findFirst().orElseThrow();
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
        int observer = java.util.stream.IntStream.range(0, SHAPE.size()).filter(s -> !t.spares().contains(s))
                .findFirst().orElseThrow();
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
        int observer = live.stream().filter(s -> !t.spares().contains(s)).findFirst().orElseThrow();
        List<Integer> rootsPossible = live.stream().filter(s -> !t.spares().contains(s)
                && torus.service(observer).view().isLive(s)).toList();
        int root = rootsPossible.get(rnd.nextInt(rootsPossible.size()));
        int partition = rnd.nextInt(REDUCERS);
        ShuffleMode mode = rnd.nextBoolean() ? ShuffleMode.CAMDOOP : ShuffleMode.NOAGG;
        TreeSet<String> attempts = new TreeSet<>();
        List<Map<String, Integer>> maps = new ArrayList<>();
        for (int s : live) {
            if (!t.spares().contains(s)) {
                attempts.add(attempt(s));
                maps.add(t.maps().get(s));
            }
        }
        // The faults: a crash of a live spare (at most one per run) and up to two link cuts, each after a random
        // number of chunks reached the reducer.
        List<Integer> spares = crashable(t);
        int crash = rnd.nextInt(3) > 0 && !spares.isEmpty() ? spares.get(rnd.nextInt(spares.size())) : -1;
        int crashAfter = rnd.nextInt(4);
        boolean restartAtOnce = crash >= 0 && rnd.nextInt(3) == 0;
        int cuts = rnd.nextInt(3);
        List<int[]> cutAt = new ArrayList<>();
        for (int i = 0; i < cuts; i++) {
            cutAt.add(new int[] {live.get(rnd.nextInt(live.size())), rnd.nextInt(Port.values().length),
                rnd.nextInt(4)});
        }
        ShuffleSpec spec = new ShuffleSpec(41L, JOB, partition, run, SHAPE.coord(root), mode, TreeChoice.SIX, attempts);
        LinkedBlockingQueue<ShuffleSpec> restarts = new LinkedBlockingQueue<>();
        torus.service(root).onRestart(restarts::add);
        RootStream stream = torus.service(root).startShuffle(spec);
        ChunkQueueRun records = new ChunkQueueRun("run " + run);
        int chunks = 0;
        boolean crashed = false;
        boolean restarted = false;
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
                if (restartAtOnce) {
                    // A supervisor restarts it well within the failure timeout: its neighbours see a new run connect
                    // and declare the old one failed then and there.
                    torus.restart(crash);
                    t.restartedAtOnce().add(crash);
                    counts.restartedAtOnce++;
                } else {
                    t.crashed().add(crash);
                }
                // Wait for the restart before reading on (the root's queue is bounded, so the shuffle rarely ends
                // first). No restart is no failure by itself: the run must still end right or fail cleanly.
                restarted = restarts.poll(10, TimeUnit.SECONDS) != null;
            }
            n = stream.next(Duration.ofSeconds(60));
            if (!(n instanceof StreamItem.Chunk c)) {
                break;
            }
            records.offer(c.bytes(), c.length());
            chunks++;
        }
        if (n instanceof StreamItem.Failed f) {
            counts.cleanFailures++;
            counts.failures.add("run " + run + ": " + f.reason());
            return;
        }
        if (!(n instanceof StreamItem.End)) {
            fail("run " + run + " (" + mode.label() + ", root " + SHAPE.coord(root) + "): stream stalled: " + n);
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
        String what = "run " + run + " (" + mode.label() + ", root " + SHAPE.coord(root) + ", crash "
                + (crash < 0 ? "none" : SHAPE.coord(crash) + " after " + crashAfter + " chunks") + ", " + cuts + " cuts)";
        assertEquals(WordCounts.reference(maps, partition, REDUCERS), sums, what);
        if (mode == ShuffleMode.NOAGG) {
            long expected = maps.stream().flatMap(m -> m.keySet().stream())
                    .filter(w -> WordCounts.partitionOf(w, REDUCERS) == partition).count();
            assertEquals(expected, received, what + ": records lost or duplicated");
        }
        if (restarted) {
            counts.recovered++;
        } else {
            counts.unaffected++;
        }
    }
}
