package org.camdoop.shuffle.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.camdoop.shuffle.aggregation.Advance;
import org.camdoop.shuffle.daemon.EmbeddedTorus;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.protocol.StreamItem;
import org.camdoop.shuffle.service.vertex.LocalMapOutput;
import org.camdoop.shuffle.testing.WordCounts;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.LinkState;
import org.camdoop.torus.transport.TransportConfig;
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
                TransportConfig.RECONNECT_MAX_MS, "100"));
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
                for (LinkState l : torus.node(s).linkStates()) {
                    assertEquals(l.peer().equals(SHAPE.coord(elsewhere)), l.routedAround(),
                            SHAPE.coord(s) + " routes around the link to " + l.peer() + " (or not): " + l);
                }
            }

            Job job = write(torus, WordCounts.jobWithCombiner(REDUCERS), elsewhere);
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
            assertFalse(which.test(s) && !condition.test(torus.service(s).view()), SHAPE.coord(s) + ": " + what);
        }
    }

    private static final String JOB = "job_1700000000000_0041";

    private record Job(List<Map<String, Integer>> maps, TreeSet<String> attempts) {
    }

    /** Map outputs on every server but {@code without}: words shared across servers and unique ones. */
    private Job write(EmbeddedTorus torus, JobConf conf, int without) throws Exception {
        torus.registerJob(JOB, conf);
        Random rnd = new Random(41);
        List<Map<String, Integer>> maps = new ArrayList<>();
        TreeSet<String> attempts = new TreeSet<>();
        for (int server = 0; server < SHAPE.size(); server++) {
            if (server == without) {
                continue;
            }
            String attempt = String.format("attempt_1700000000000_0041_m_%06d_0", server);
            Map<String, Integer> counts = new TreeMap<>();
            for (int i = 0; i < 500; i++) {
                String word = rnd.nextBoolean() ? "w" + rnd.nextInt(300) : "only" + server + "-" + i;
                counts.merge(word, 1 + rnd.nextInt(3), Integer::sum);
            }
            org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(dir.resolve(attempt + ".out").toString());
            org.apache.hadoop.fs.Path index = new org.apache.hadoop.fs.Path(dir.resolve(attempt + ".idx").toString());
            WordCounts.write(conf, file, index, counts);
            torus.addMapOutput(server, JOB, new LocalMapOutput(attempt, file, index));
            maps.add(counts);
            attempts.add(attempt);
        }
        return new Job(maps, attempts);
    }

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
