package org.camdoop.shuffle.service;

import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.protocol.StreamItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.camdoop.shuffle.aggregation.Advance;
import org.camdoop.shuffle.aggregation.ChunkQueueRun;
import org.camdoop.shuffle.daemon.EmbeddedTorus;
import org.camdoop.shuffle.service.vertex.LocalMapOutput;
import org.camdoop.shuffle.testing.WordCounts;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.TransportConfig;
import org.camdoop.torus.trees.TreeChoice;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The service on 27 daemons joined by the real transport (in-JVM channels): output equals the reference. */
class ServiceOnTorusTest {

    private static final int REDUCERS = 4;
    private static final String JOB = "job_1700000000000_0001";
    private static final TorusShape SHAPE = TorusShape.parse("3x3x3");

    @TempDir
    static Path dir;
    private static EmbeddedTorus torus;
    private static final List<Map<String, Integer>> maps = new ArrayList<>();
    private static final TreeSet<String> attempts = new TreeSet<>();
    /** Every shuffle of the job here is a new reduce attempt, as Hadoop's retries would be. */
    private static final java.util.concurrent.atomic.AtomicInteger ATTEMPTS = new java.util.concurrent.atomic.AtomicInteger();

    @BeforeAll
    static void startTorus() throws Exception {
        TransportConfig config = TransportConfig.of(Map.of(TransportConfig.CLUSTER_SECRET, "service-on-torus-test-secret-of-32-bytes",
                TransportConfig.SEGMENT_BYTES, "4096", TransportConfig.MAX_FRAME_BYTES, "8192"));
        torus = EmbeddedTorus.start(FailureView.none(SHAPE), config, EmbeddedTorus.Wiring.IN_JVM, 2);
        JobConf conf = WordCounts.jobWithCombiner(REDUCERS);
        torus.registerJob(JOB, conf);
        Random rnd = new Random(3);
        for (int server = 0; server < SHAPE.size(); server++) {
            String attempt = String.format("attempt_1700000000000_0001_m_%06d_0", server);
            Map<String, Integer> counts = new TreeMap<>();
            for (int i = 0; i < 2000; i++) {
                String word = rnd.nextDouble() < 0.3 ? "only" + server + "-" + i : "w" + rnd.nextInt(800);
                counts.merge(word, 1 + rnd.nextInt(3), Integer::sum);
            }
            // One huge value-carrying key per server, far larger than a 4 KB segment.
            counts.put("huge-" + "x".repeat(9000) + server, 1);
            org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(dir.resolve(attempt + ".out").toString());
            org.apache.hadoop.fs.Path index = new org.apache.hadoop.fs.Path(dir.resolve(attempt + ".index").toString());
            WordCounts.write(conf, file, index, counts);
            torus.addMapOutput(server, JOB, new LocalMapOutput(attempt, file, index));
            maps.add(counts);
            attempts.add(attempt);
        }
    }

    @AfterAll
    static void stopTorus() throws Exception {
        torus.close();
    }

    private record Result(SortedMap<String, Long> sums, StreamItem last, long bytes, int records) {
    }

    private static Result run(ShuffleSpec spec) throws Exception {
        RootStream root = torus.service(SHAPE.index(spec.root())).startShuffle(spec);
        ChunkQueueRun records = new ChunkQueueRun("root");
        long bytes = 0;
        while (true) {
            StreamItem n = root.next(Duration.ofSeconds(60));
            if (n instanceof StreamItem.Chunk c) {
                records.offer(c.bytes(), c.length());
                bytes += c.length();
                continue;
            }
            records.finish();
            SortedMap<String, Long> sums = new TreeMap<>((a, b) -> new Text(a).compareTo(new Text(b)));
            String previous = null;
            int count = 0;
            while (records.advance() == Advance.RECORD) {
                count++;
                String key = WordCounts.text(records.key().array(), records.key().offset(), records.key().length());
                assertTrue(previous == null || new Text(previous).compareTo(new Text(key)) <= 0, "out of order");
                previous = key;
                sums.merge(key, (long) WordCounts.intValue(records.value().array(), records.value().offset(),
                        records.value().length()), Long::sum);
            }
            return new Result(sums, n, bytes, count);
        }
    }

    private static ShuffleSpec spec(int partition, String root, ShuffleMode mode, TreeChoice trees,
            TreeSet<String> expected) {
        return new ShuffleSpec(42L, JOB, partition, ATTEMPTS.getAndIncrement(), Coord.parse(root), mode, trees, expected);
    }

    @ParameterizedTest(name = "{0} {1} partition {2} root {3}")
    @CsvSource(delimiter = ';', value = {"camdoop;six;0;1,1,1", "camdoop;six;3;0,2,1", "noagg;six;1;2,2,2",
        "camdoop;shortest;2;1,0,1", "direct;six;0;0,0,0"})
    void theMergedStreamEqualsTheReference(String mode, String trees, int partition, String root) throws Exception {
        Result r = run(spec(partition, root, ShuffleMode.parse(mode), TreeChoice.parse(trees), attempts));
        assertInstanceOf(StreamItem.End.class, r.last(), () -> r.last().toString());
        assertEquals(WordCounts.reference(maps, partition, REDUCERS), r.sums());
        assertEquals(attempts, ((StreamItem.End) r.last()).end().attempts().attempts());
    }

    @Test
    void combiningOnPathCutsTheBytesIntoTheRoot() throws Exception {
        Result camdoop = run(spec(2, "1,1,1", ShuffleMode.CAMDOOP, TreeChoice.SIX, attempts));
        Result noagg = run(spec(2, "1,1,1", ShuffleMode.NOAGG, TreeChoice.SIX, attempts));
        assertEquals(camdoop.sums(), noagg.sums());
        // Without combining every map record of the partition reaches the root; with it, at most two per key (the
        // key's tree and the root's own map output).
        long mapRecords = maps.stream().flatMap(m -> m.keySet().stream())
                .filter(w -> WordCounts.partitionOf(w, REDUCERS) == 2).count();
        assertEquals(mapRecords, noagg.records());
        assertTrue(camdoop.records() <= 2 * camdoop.sums().size(), camdoop.records() + " records into the root");
        assertTrue(camdoop.bytes() < noagg.bytes(), camdoop.bytes() + " vs " + noagg.bytes());
        long combined = ((StreamItem.End) camdoop.last()).end().recordsCombined();
        assertTrue(combined > 0);
        assertEquals(0, ((StreamItem.End) noagg.last()).end().recordsCombined());
    }

    @Test
    void allPartitionsOfTwoJobsAtOnce() throws Exception {
        JobConf other = WordCounts.job(REDUCERS);
        String job2 = "job_1700000000000_0002";
        torus.registerJob(job2, other);
        TreeSet<String> attempts2 = new TreeSet<>();
        List<Map<String, Integer>> maps2 = new ArrayList<>();
        for (int server = 0; server < SHAPE.size(); server += 2) {
            String attempt = String.format("attempt_1700000000000_0002_m_%06d_0", server);
            Map<String, Integer> counts = Map.of("a" + server, 1, "shared", 2);
            org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(dir.resolve(attempt + ".out").toString());
            org.apache.hadoop.fs.Path index = new org.apache.hadoop.fs.Path(dir.resolve(attempt + ".index").toString());
            WordCounts.write(other, file, index, counts);
            torus.addMapOutput(server, job2, new LocalMapOutput(attempt, file, index));
            attempts2.add(attempt);
            maps2.add(counts);
        }
        List<RootStream> roots = new ArrayList<>();
        List<ShuffleSpec> specs = new ArrayList<>();
        for (int p = 0; p < REDUCERS; p++) {
            specs.add(spec(p, SHAPE.coord(p * 5).toString(), ShuffleMode.CAMDOOP, TreeChoice.SIX, attempts));
            specs.add(new ShuffleSpec(43L, job2, p, 0, SHAPE.coord(26 - p), ShuffleMode.NOAGG, TreeChoice.SIX, attempts2));
        }
        for (ShuffleSpec s : specs) {
            roots.add(torus.service(SHAPE.index(s.root())).startShuffle(s));
        }
        // Consume them all at once, so every shuffle shares the links with the others.
        List<TorusWaits.Drained> outputs = TorusWaits.drainAll(roots, Duration.ofSeconds(60));
        for (int i = 0; i < specs.size(); i++) {
            StreamItem last = outputs.get(i).last();
            String name = specs.get(i).describe();
            assertInstanceOf(StreamItem.End.class, last, () -> name + ": " + last);
        }
        for (int i = 0; i < specs.size(); i++) {
            ShuffleSpec s = specs.get(i);
            SortedMap<String, Long> sums = new TreeMap<>((a, b) -> new Text(a).compareTo(new Text(b)));
            ChunkQueueRun run = outputs.get(i).records();
            while (run.advance() == Advance.RECORD) {
                sums.merge(WordCounts.text(run.key().array(), run.key().offset(), run.key().length()),
                        (long) WordCounts.intValue(run.value().array(), run.value().offset(), run.value().length()),
                        Long::sum);
            }
            assertEquals(WordCounts.reference(s.jobId().equals(JOB) ? maps : maps2, s.partition(), REDUCERS), sums,
                    s.describe());
        }
        // Every vertex of every shuffle finished and was forgotten (generous: under load the last acks come late).
        TorusWaits.idle(torus, server -> true, Duration.ofSeconds(30));
    }

    @Test
    void aMissingMapAttemptFailsTheRootPrecisely() throws Exception {
        TreeSet<String> expected = new TreeSet<>(attempts);
        expected.add("attempt_1700000000000_0001_m_000099_0");
        Result r = run(spec(1, "2,1,0", ShuffleMode.CAMDOOP, TreeChoice.SIX, expected));
        assertInstanceOf(StreamItem.Failed.class, r.last());
        assertTrue(((StreamItem.Failed) r.last()).reason()
                .contains("map attempts missing: [attempt_1700000000000_0001_m_000099_0]"), r.last().toString());
    }

    @Test
    void aJobUnknownToTheDaemonsFailsClearly() throws Exception {
        Result r = run(new ShuffleSpec(44L, "job_1700000000000_0009", 0, 0, new Coord(0, 0, 0), ShuffleMode.CAMDOOP,
                TreeChoice.SIX, new TreeSet<>()));
        assertInstanceOf(StreamItem.Failed.class, r.last());
        assertTrue(((StreamItem.Failed) r.last()).reason().contains("does not know job job_1700000000000_0009"),
                r.last().toString());
    }
}
