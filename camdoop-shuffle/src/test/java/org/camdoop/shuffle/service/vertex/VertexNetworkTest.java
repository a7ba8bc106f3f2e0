package org.camdoop.shuffle.service.vertex;

import org.camdoop.shuffle.protocol.EndOfStream;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.camdoop.shuffle.aggregation.Advance;
import org.camdoop.shuffle.aggregation.ChunkQueueRun;
import org.camdoop.shuffle.aggregation.JobAggregationSpec;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.service.plan.ShufflePlan;
import org.camdoop.shuffle.testing.WordCounts;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.trees.TreeChoice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every vertex of a shuffle, connected in memory with credit windows: output equals the in-memory reference. */
class VertexNetworkTest {

    private static final int REDUCERS = 3;

    @TempDir
    Path dir;

    /** The maps of a job: one per server (two on server 0), words shared by all with probability 1 - s. */
    private record Job(Map<String, Map<String, Integer>> byAttempt, Map<Integer, List<LocalMapOutput>> byServer) {
    }

    private Job writeJob(JobConf conf, TorusShape shape, double s, long seed) throws Exception {
        Random rnd = new Random(seed);
        Map<String, Map<String, Integer>> byAttempt = new LinkedHashMap<>();
        Map<Integer, List<LocalMapOutput>> byServer = new HashMap<>();
        int task = 0;
        for (int server = 0; server < shape.size(); server++) {
            for (int m = 0; m < (server == 0 ? 2 : 1); m++) {
                String attempt = String.format("attempt_1_0001_m_%06d_0", task++);
                Map<String, Integer> counts = new TreeMap<>();
                for (int w = 0; w < 300; w++) {
                    String word = rnd.nextDouble() < s ? "u" + attempt.substring(17) + "x" + w : "w" + rnd.nextInt(200);
                    counts.merge(word, 1 + rnd.nextInt(5), Integer::sum);
                }
                Path file = dir.resolve(attempt + ".out");
                Path index = dir.resolve(attempt + ".out.index");
                WordCounts.write(conf, new org.apache.hadoop.fs.Path(file.toString()),
                        new org.apache.hadoop.fs.Path(index.toString()), counts);
                byAttempt.put(attempt, counts);
                byServer.computeIfAbsent(server, k -> new ArrayList<>()).add(new LocalMapOutput(attempt,
                        new org.apache.hadoop.fs.Path(file.toString()), new org.apache.hadoop.fs.Path(index.toString())));
            }
        }
        return new Job(byAttempt, byServer);
    }

    private static SortedMap<String, Long> summed(List<byte[]> chunks) throws Exception {
        ChunkQueueRun run = new ChunkQueueRun("root output");
        chunks.forEach(c -> run.offer(c, c.length));
        run.finish();
        SortedMap<String, Long> out = new TreeMap<>((a, b) -> new Text(a).compareTo(new Text(b)));
        String previous = null;
        while (run.advance() == Advance.RECORD) {
            String key = WordCounts.text(run.key().array(), run.key().offset(), run.key().length());
            if (previous != null) {
                assertTrue(new Text(previous).compareTo(new Text(key)) <= 0, "root output out of order");
            }
            previous = key;
            out.merge(key, (long) WordCounts.intValue(run.value().array(), run.value().offset(), run.value().length()),
                    Long::sum);
        }
        return out;
    }

    private record Outcome(SortedMap<String, Long> output, EndOfStream end, long rootBytes, int rootRecords) {
    }

    private Outcome shuffle(JobConf conf, Job job, TorusShape shape, FailureView view, Coord root, ShuffleMode mode,
            TreeChoice trees, int partition, TreeSet<String> expected, int window) throws Exception {
        ShuffleSpec spec = new ShuffleSpec(99L, "job_1_0001", partition, 0, root, mode, trees, expected);
        JobAggregationSpec agg = JobAggregationSpec.fromJob(conf).withBufferSizes(4096, 4096);
        if (!mode.combines()) {
            agg = agg.withoutCombiner();
        }
        try (InMemoryShuffle net = new InMemoryShuffle(new ShufflePlan(spec, view), shape.size(), agg, job.byServer(),
                window)) {
            EndOfStream end = net.root.done.get(60, TimeUnit.SECONDS);
            assertTrue(net.maxHeldPerLink.get() <= window, "a stream exceeded its credit window");
            for (Vertex v : net.vertices()) {
                // A vertex publishes DONE before sending its end, and the root ends after all of them.
                assertEquals(VertexState.DONE, v.state(), v.label());
            }
            int records = 0;
            ChunkQueueRun run = new ChunkQueueRun("count");
            net.root.chunks.forEach(c -> run.offer(c, c.length));
            run.finish();
            while (run.advance() == Advance.RECORD) {
                records++;
            }
            return new Outcome(summed(net.root.chunks), end, net.root.bytes.get(), records);
        }
    }

    @ParameterizedTest(name = "{0} {1} s={2} root {3}")
    @CsvSource({"camdoop,six,0,1;1;1", "camdoop,six,0.5,0;2;1", "camdoop,six,1,2;2;2", "noagg,six,0,1;0;1",
        "camdoop,shortest,0,1;1;1", "noagg,shortest,0.5,0;0;0", "direct,six,0,1;1;1", "direct,six,1,2;0;1"})
    void everyModeDeliversTheReferenceSumsToTheRoot(String mode, String trees, double s, String root) throws Exception {
        TorusShape shape = TorusShape.parse("3x3x3");
        JobConf conf = WordCounts.jobWithCombiner(REDUCERS);
        Job job = writeJob(conf, shape, s, 7);
        for (int partition = 0; partition < REDUCERS; partition++) {
            Outcome o = shuffle(conf, job, shape, FailureView.none(shape), Coord.parse(root.replace(';', ',')),
                    ShuffleMode.parse(mode), TreeChoice.parse(trees), partition, new TreeSet<>(job.byAttempt().keySet()),
                    2);
            assertEquals(WordCounts.reference(new ArrayList<>(job.byAttempt().values()), partition, REDUCERS),
                    o.output(), "partition " + partition);
            assertEquals(job.byAttempt().keySet(), o.end().attempts().attempts());
            if (ShuffleMode.parse(mode) == ShuffleMode.CAMDOOP && s == 0) {
                // Fully combined on path: at most one record per key per tree, plus the root's own map output.
                assertTrue(o.rootRecords() <= 2 * o.output().size(), o.rootRecords() + " records into the root");
                assertTrue(o.end().recordsCombined() > 0);
            }
            if (ShuffleMode.parse(mode) != ShuffleMode.CAMDOOP) {
                assertEquals(0, o.end().recordsCombined());
            }
        }
    }

    @ParameterizedTest(name = "{0} root {1} {2}")
    @CsvSource({"2x2x2,1;1;1,six", "4x1x1,2;0;0,six", "3x3x1,0;1;0,six", "2x3x3,1;2;0,six", "4x4x4,3;1;2,six",
        "5x3x2,4;2;1,six", "1x1x1,0;0;0,six", "4x4x4,0;0;0,shortest"})
    void everyShapeDeliversTheReferenceSums(String s, String root, String trees) throws Exception {
        TorusShape shape = TorusShape.parse(s);
        JobConf conf = WordCounts.jobWithCombiner(REDUCERS);
        Job job = writeJob(conf, shape, 0.4, shape.size());
        for (int partition = 0; partition < REDUCERS; partition++) {
            Outcome o = shuffle(conf, job, shape, FailureView.none(shape), Coord.parse(root.replace(';', ',')),
                    ShuffleMode.CAMDOOP, TreeChoice.parse(trees), partition, new TreeSet<>(job.byAttempt().keySet()), 2);
            assertEquals(WordCounts.reference(new ArrayList<>(job.byAttempt().values()), partition, REDUCERS),
                    o.output(), s + " partition " + partition);
        }
    }

    /** The root vertex times its wait for the reduce task's credit on its clock: exactly the time the gate was shut. */
    @Test
    void aVertexTimesItsWaitForCreditOnItsClock() throws Exception {
        TorusShape shape = TorusShape.parse("2x2x2");
        JobConf conf = WordCounts.jobWithCombiner(1);
        Job job = writeJob(conf, shape, 0.5, 3);
        ShuffleSpec spec = new ShuffleSpec(99L, "job_1_0001", 0, 0, new Coord(0, 0, 0), ShuffleMode.CAMDOOP,
                TreeChoice.SIX, new TreeSet<>(job.byAttempt().keySet()));
        java.util.concurrent.atomic.AtomicLong clock = new java.util.concurrent.atomic.AtomicLong(1_000);
        try (InMemoryShuffle net = new InMemoryShuffle(new ShufflePlan(spec, FailureView.none(shape)), shape.size(),
                JobAggregationSpec.fromJob(conf).withBufferSizes(4096, 4096), job.byServer(), 2, clock::get, true)) {
            net.root.waiting.get(60, TimeUnit.SECONDS);
            clock.addAndGet(5_000_000);
            net.root.open();
            net.root.done.get(60, TimeUnit.SECONDS);
            Vertex root = net.vertices().stream().filter(v -> v.label().contains(" root ")).findFirst().orElseThrow();
            assertEquals(5_000_000, root.creditWaitedNanos());
        }
    }

    @Test
    void onPathCombiningShrinksWhatReachesTheRoot() throws Exception {
        TorusShape shape = TorusShape.parse("3x3x3");
        JobConf conf = WordCounts.jobWithCombiner(1);
        Job job = writeJob(conf, shape, 0, 11);
        TreeSet<String> all = new TreeSet<>(job.byAttempt().keySet());
        Coord root = new Coord(1, 1, 1);
        Outcome camdoop = shuffle(conf, job, shape, FailureView.none(shape), root, ShuffleMode.CAMDOOP, TreeChoice.SIX,
                0, all, 4);
        Outcome noagg = shuffle(conf, job, shape, FailureView.none(shape), root, ShuffleMode.NOAGG, TreeChoice.SIX, 0,
                all, 4);
        assertEquals(camdoop.output(), noagg.output());
        assertTrue(camdoop.rootBytes() * 5 < noagg.rootBytes(),
                "camdoop " + camdoop.rootBytes() + " bytes into the root vs noagg " + noagg.rootBytes());
        assertTrue(camdoop.end().linkBytes() < noagg.end().linkBytes());
    }

    @Test
    void aFailedServersVertexRunsElsewhereAndItsMissingMapOutputIsReported() throws Exception {
        TorusShape shape = TorusShape.parse("3x3x3");
        JobConf conf = WordCounts.jobWithCombiner(1);
        Job job = writeJob(conf, shape, 0.3, 5);
        Coord dead = new Coord(2, 1, 1);
        String lost = job.byServer().get(shape.index(dead)).get(0).attemptId();
        FailureView view = FailureView.none(shape).withFailed(dead);
        // Without the dead server's attempt the job is complete: the vertex moved, everything else arrives.
        TreeSet<String> surviving = new TreeSet<>(job.byAttempt().keySet());
        surviving.remove(lost);
        Map<String, Map<String, Integer>> kept = new LinkedHashMap<>(job.byAttempt());
        kept.remove(lost);
        Outcome o = shuffle(conf, job, shape, view, new Coord(0, 0, 0), ShuffleMode.CAMDOOP, TreeChoice.SIX, 0,
                surviving, 2);
        assertEquals(WordCounts.reference(new ArrayList<>(kept.values()), 0, 1), o.output());
        // Expecting it anyway is a precise failure at the root.
        ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> shuffle(conf, job, shape, view, new Coord(0, 0, 0), ShuffleMode.CAMDOOP, TreeChoice.SIX, 0,
                        new TreeSet<>(job.byAttempt().keySet()), 2));
        assertTrue(e.getCause().getMessage().contains("map attempts missing: [" + lost + "]"), e.getCause().getMessage());
    }

    @Test
    void aMapOutputOnTwoServersIsADuplicateAtTheRoot() throws Exception {
        TorusShape shape = TorusShape.parse("3x3x3");
        JobConf conf = WordCounts.jobWithCombiner(1);
        Job job = writeJob(conf, shape, 0.3, 9);
        LocalMapOutput twin = job.byServer().get(4).get(0);
        job.byServer().get(20).add(twin);
        ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> shuffle(conf, job, shape, FailureView.none(shape), new Coord(1, 1, 1), ShuffleMode.CAMDOOP,
                        TreeChoice.SIX, 0, new TreeSet<>(job.byAttempt().keySet()), 2));
        assertTrue(e.getCause().getMessage().contains(twin.attemptId()), e.getCause().getMessage());
        assertTrue(e.getCause().getMessage().contains("duplicated"), e.getCause().getMessage());
    }
}
