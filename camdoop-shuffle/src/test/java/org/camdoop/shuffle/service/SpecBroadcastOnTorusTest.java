package org.camdoop.shuffle.service;

import org.camdoop.shuffle.protocol.StreamItem;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.camdoop.shuffle.aggregation.Advance;
import org.camdoop.shuffle.aggregation.ChunkQueueRun;
import org.camdoop.shuffle.daemon.EmbeddedTorus;
import org.camdoop.shuffle.protocol.JarDigest;
import org.camdoop.shuffle.protocol.JobSpec;
import org.camdoop.shuffle.protocol.JobSpecCodec;
import org.camdoop.shuffle.service.net.SpecMessages;
import org.camdoop.shuffle.service.vertex.LocalMapOutput;
import org.camdoop.shuffle.testing.CompiledJar;
import org.camdoop.shuffle.testing.WordCounts;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.TransportConfig;
import org.camdoop.torus.transport.wire.FrameLayout;
import org.camdoop.torus.transport.wire.StreamId;
import org.camdoop.torus.trees.TreeChoice;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 27 daemons on the real transport (in-JVM channels), each job registered on ONE daemon only: the spec broadcast
 * must carry the spec and the job's jar to every other daemon before they can merge and combine.
 */
class SpecBroadcastOnTorusTest {

    private static final int REDUCERS = 3;
    private static final TorusShape SHAPE = TorusShape.parse("3x3x3");
    private static final long SPEC_WAIT_MS = 2000;
    private static final int FRAME_BYTES = 8192;
    private static final String COMBINER = "userjob.CountingSumCombiner";
    /** A combiner compiled at test time: sums, and counts its calls so a test can see which daemon ran it. */
    private static final String COMBINER_SOURCE = """
            package userjob;
            import java.io.IOException;
            import java.util.Iterator;
            import java.util.concurrent.atomic.AtomicLong;
            import org.apache.hadoop.io.IntWritable;
            import org.apache.hadoop.io.Text;
            import org.apache.hadoop.mapred.*;
            public class CountingSumCombiner extends MapReduceBase
                    implements Reducer<Text, IntWritable, Text, IntWritable> {
                public static final AtomicLong CALLS = new AtomicLong();
                public void reduce(Text key, Iterator<IntWritable> values,
                        OutputCollector<Text, IntWritable> out, Reporter reporter) throws IOException {
                    CALLS.incrementAndGet();
                    int sum = 0;
                    while (values.hasNext()) {
                        sum += values.next().get();
                    }
                    out.collect(key, new IntWritable(sum));
                }
            }
            """;

    @TempDir
    static Path dir;
    private static EmbeddedTorus torus;
    private static Path jar;

    @BeforeAll
    static void startTorus() throws Exception {
        TransportConfig config = TransportConfig.of(Map.of(TransportConfig.CLUSTER_SECRET, "spec-broadcast-test-secret-of-32-bytes",
                TransportConfig.SEGMENT_BYTES, "4096", TransportConfig.MAX_FRAME_BYTES, Integer.toString(FRAME_BYTES)));
        torus = EmbeddedTorus.start(FailureView.none(SHAPE), config, EmbeddedTorus.Wiring.IN_JVM, 2, SPEC_WAIT_MS);
        // About five frames of jar parts at this frame size.
        jar = CompiledJar.build(dir, "combiner.jar", Map.of(COMBINER, COMBINER_SOURCE), 40_000);
    }

    @AfterAll
    static void stopTorus() throws Exception {
        torus.close();
    }

    private static JobConf job(String jobId) {
        JobConf conf = WordCounts.job(REDUCERS);
        conf.set(MRJobConfig.ID, jobId);
        conf.set("mapred.combiner.class", COMBINER);
        return conf;
    }

    /** Word counts on every daemon for {@code jobId}; returns the maps written, one per server. */
    private static List<Map<String, Integer>> mapOutputsEverywhere(String jobId, JobConf conf, TreeSet<String> attempts)
            throws Exception {
        Random rnd = new Random(jobId.hashCode());
        List<Map<String, Integer>> maps = new ArrayList<>();
        String attemptPrefix = jobId.replace("job_", "attempt_");
        for (int server = 0; server < SHAPE.size(); server++) {
            String attempt = String.format("%s_m_%06d_0", attemptPrefix, server);
            Map<String, Integer> counts = new TreeMap<>();
            for (int i = 0; i < 400; i++) {
                counts.merge("w" + rnd.nextInt(300), 1 + rnd.nextInt(3), Integer::sum);
            }
            org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(dir.resolve(attempt + ".out").toString());
            org.apache.hadoop.fs.Path index = new org.apache.hadoop.fs.Path(dir.resolve(attempt + ".index").toString());
            WordCounts.write(conf, file, index, counts);
            torus.addMapOutput(server, jobId, new LocalMapOutput(attempt, file, index));
            maps.add(counts);
            attempts.add(attempt);
        }
        return maps;
    }

    private record Prepared(int root, TreeSet<String> attempts, List<Map<String, Integer>> maps) {
    }

    /** Job {@code jobId} registered (with its jar) on the daemon at {@code rootCoord} only, map outputs everywhere. */
    private static Prepared prepare(String jobId, Coord rootCoord) throws Exception {
        JobConf conf = job(jobId);
        int root = SHAPE.index(rootCoord);
        torus.registerJobOn(root, conf, List.of(jar));
        TreeSet<String> attempts = new TreeSet<>();
        List<Map<String, Integer>> maps = mapOutputsEverywhere(jobId, conf, attempts);
        return new Prepared(root, attempts, maps);
    }

    private record Result(SortedMap<String, Long> sums, StreamItem last) {
    }

    private static Result run(ShuffleSpec spec) throws Exception {
        RootStream root = torus.service(SHAPE.index(spec.root())).startShuffle(spec);
        ChunkQueueRun records = new ChunkQueueRun("root");
        while (true) {
            StreamItem n = root.next(Duration.ofSeconds(30));
            if (n instanceof StreamItem.Chunk c) {
                records.offer(c.bytes(), c.length());
                continue;
            }
            records.finish();
            SortedMap<String, Long> sums = new TreeMap<>((a, b) -> new Text(a).compareTo(new Text(b)));
            while (n instanceof StreamItem.End && records.advance() == Advance.RECORD) {
                sums.merge(WordCounts.text(records.key().array(), records.key().offset(), records.key().length()),
                        (long) WordCounts.intValue(records.value().array(), records.value().offset(),
                                records.value().length()), Long::sum);
            }
            return new Result(sums, n);
        }
    }

    /**
     * Found by review: a daemon that could not store a job's jar for want of room or of an upload slot refused the job
     * (and every shuffle of it there failed) though nothing was wrong with the jar. Now it forgets what came, its
     * parked START asks the root again, and the shuffle completes once the slots are free.
     */
    @Test
    void aJarADaemonHasNoRoomForYetIsAskedForAgainAndTheJobIsNotRefused() throws Exception {
        String jobId = "job_1700000000000_0015";
        Prepared prepared = prepare(jobId, new Coord(0, 1, 1));
        int busy = SHAPE.index(new Coord(2, 2, 2));
        long partsBefore = counters().get(busy).jarPartsReceived();
        org.camdoop.shuffle.jobs.JarCache cache = torus.jarCache(busy);
        List<org.camdoop.shuffle.jobs.JarCache.Upload> slots = new ArrayList<>();
        RootStream root;
        try {
            for (int i = 0; i < org.camdoop.shuffle.jobs.JobsConfig.JAR_CACHE_MAX_UPLOADS_DEFAULT; i++) {
                slots.add(cache.begin(JarDigest.of(new byte[] {(byte) i}), 1));
            }
            root = torus.service(prepared.root()).startShuffle(new ShuffleSpec(55L, jobId, 1, 0,
                    SHAPE.coord(prepared.root()), ShuffleMode.CAMDOOP, TreeChoice.SIX, prepared.attempts()));
            // No event says the jar came and found no slot: its parts are counted as they arrive (polled, bounded).
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(SPEC_WAIT_MS);
            while (counters().get(busy).jarPartsReceived() < partsBefore + Files.size(jar) / FRAME_BYTES) {
                assertTrue(System.nanoTime() < deadline, "the jar did not reach " + SHAPE.coord(busy));
                Thread.sleep(5);
            }
            assertEquals(Optional.empty(), torus.service(busy).specBroadcast().refusal(jobId));
        } finally {
            for (org.camdoop.shuffle.jobs.JarCache.Upload u : slots) {
                u.close();
            }
        }
        ChunkQueueRun records = new ChunkQueueRun("root");
        StreamItem n;
        while ((n = root.next(Duration.ofSeconds(30))) instanceof StreamItem.Chunk c) {
            records.offer(c.bytes(), c.length());
        }
        assertInstanceOf(StreamItem.End.class, n, n::toString);
        assertTrue(torus.registry(busy).lookup(jobId).isPresent(), "the job registered where it found no room first");
    }

    private static List<SpecBroadcast.Counters> counters() {
        List<SpecBroadcast.Counters> out = new ArrayList<>();
        for (int s = 0; s < SHAPE.size(); s++) {
            out.add(torus.service(s).specBroadcast().counters());
        }
        return out;
    }

    @Test
    void aJobKnownOnlyToTheRootReachesEveryDaemonWithItsJarOnce() throws Exception {
        String jobId = "job_1700000000000_0011";
        Prepared prepared = prepare(jobId, new Coord(1, 1, 1));
        int root = prepared.root();
        TreeSet<String> attempts = prepared.attempts();
        List<Map<String, Integer>> maps = prepared.maps();
        assertThrows(ClassNotFoundException.class, () -> Class.forName(COMBINER), "the combiner must come from the jar");
        List<SpecBroadcast.Counters> before = counters();

        Result r = run(new ShuffleSpec(51L, jobId, 1, 0, SHAPE.coord(root), ShuffleMode.CAMDOOP, TreeChoice.SIX,
                attempts));

        assertInstanceOf(StreamItem.End.class, r.last(), () -> r.last().toString());
        assertEquals(WordCounts.reference(maps, 1, REDUCERS), r.sums());
        // Every daemon now serves the job with the combiner loaded from the broadcast jar, and ran it.
        long remoteCalls = 0;
        int remoteDaemonsThatCombined = 0;
        for (int s = 0; s < SHAPE.size(); s++) {
            Class<?> combiner = torus.registry(s).lookup(jobId).orElseThrow().aggregation().job().getCombinerClass();
            assertEquals(COMBINER, combiner.getName());
            assertEquals(torus.registry(s).lookup(jobId).get().classLoader(), combiner.getClassLoader());
            long calls = ((AtomicLong) combiner.getField("CALLS").get(null)).get();
            if (s != root) {
                remoteCalls += calls;
                remoteDaemonsThatCombined += calls > 0 ? 1 : 0;
            }
        }
        assertTrue(remoteCalls > 0 && remoteDaemonsThatCombined >= SHAPE.size() / 2,
                remoteDaemonsThatCombined + " remote daemons combined, " + remoteCalls + " calls");
        // Cooperative broadcast: each tree link carried the spec and every part of the jar exactly once.
        int parts = (int) Math.ceil(Files.size(jar)
                / (double) SpecMessages.partBytes(FRAME_BYTES - FrameLayout.PAYLOAD, jobId));
        BroadcastTree tree = new BroadcastTree(FailureView.none(SHAPE), root);
        List<SpecBroadcast.Counters> after = counters();
        long partsSent = 0;
        for (int s = 0; s < SHAPE.size(); s++) {
            int children = tree.children(s).size();
            long sent = after.get(s).jarPartsSent() - before.get(s).jarPartsSent();
            assertEquals((long) children * parts, sent, "jar parts sent by " + SHAPE.coord(s));
            assertEquals(children, after.get(s).specsSent() - before.get(s).specsSent(), "specs sent by " + s);
            assertEquals(s == root ? 0 : parts, after.get(s).jarPartsReceived() - before.get(s).jarPartsReceived(),
                    "jar parts received by " + SHAPE.coord(s));
            partsSent += sent;
            assertEquals(0, torus.service(s).specBroadcast().jobsInFlight());
        }
        assertEquals((long) (SHAPE.size() - 1) * parts, partsSent);
        assertTrue(parts > 1, "the jar should need several frames, got " + parts);

        // A second shuffle of the job from the same root under the same view sends nothing again.
        Result again = run(new ShuffleSpec(51L, jobId, 2, 0, SHAPE.coord(root), ShuffleMode.CAMDOOP, TreeChoice.SIX,
                attempts));
        assertEquals(WordCounts.reference(maps, 2, REDUCERS), again.sums());
        assertEquals(after.get(root).jarPartsSent(), torus.service(root).specBroadcast().counters().jarPartsSent());
    }

    @Test
    void aSpecThatNeverArrivesFailsTheRootAfterTheWait() throws Exception {
        String jobId = "job_1700000000000_0012";
        Prepared prepared = prepare(jobId, new Coord(0, 2, 1));
        int root = prepared.root();
        TreeSet<String> attempts = prepared.attempts();
        torus.service(root).specBroadcast().mute(true);
        try {
            Result r = run(new ShuffleSpec(52L, jobId, 0, 0, SHAPE.coord(root), ShuffleMode.CAMDOOP, TreeChoice.SIX,
                    attempts));
            assertInstanceOf(StreamItem.Failed.class, r.last(), () -> r.last().toString());
            String reason = ((StreamItem.Failed) r.last()).reason();
            assertTrue(reason.matches("(?s).*daemon [0-2],[0-2],[0-2] did not receive the spec of "
                    + "job_1700000000000_0012 within 2000 ms.*"), reason);
        } finally {
            torus.service(root).specBroadcast().mute(false);
        }
        TorusWaits.noParkedStarts(torus, Duration.ofSeconds(10));
        for (int s = 0; s < SHAPE.size(); s++) {
            assertEquals(s == root, torus.registry(s).lookup(jobId).isPresent(), "job known on " + SHAPE.coord(s));
        }
    }

    @Test
    void daemonsBehindADaemonThatForwardsNothingAskTheRootAndTheShuffleCompletes() throws Exception {
        String jobId = "job_1700000000000_0014";
        Prepared prepared = prepare(jobId, new Coord(2, 1, 0));
        int root = prepared.root();
        TreeSet<String> attempts = prepared.attempts();
        List<Map<String, Integer>> maps = prepared.maps();
        BroadcastTree tree = new BroadcastTree(FailureView.none(SHAPE), root);
        // A child of the root with a subtree: everything below it misses the broadcast.
        int silent = tree.children(root).stream().filter(c -> !tree.children(c).isEmpty()).findFirst().orElseThrow();
        List<Integer> behind = new ArrayList<>();
        for (List<Integer> level = tree.children(silent); !level.isEmpty(); ) {
            behind.addAll(level);
            level = level.stream().flatMap(c -> tree.children(c).stream()).toList();
        }
        long specsSentBefore = torus.service(root).specBroadcast().counters().specsSent();
        torus.service(silent).specBroadcast().mute(true);
        try {
            Result r = run(new ShuffleSpec(54L, jobId, 0, 0, SHAPE.coord(root), ShuffleMode.CAMDOOP, TreeChoice.SIX,
                    attempts));
            assertInstanceOf(StreamItem.End.class, r.last(), () -> r.last().toString());
            assertEquals(WordCounts.reference(maps, 0, REDUCERS), r.sums());
        } finally {
            torus.service(silent).specBroadcast().mute(false);
        }
        for (int s = 0; s < SHAPE.size(); s++) {
            assertTrue(torus.registry(s).lookup(jobId).isPresent(), "job known on " + SHAPE.coord(s));
        }
        // The broadcast to the root's children, then one answer (or more, if an answer was slow) to each asker.
        long answers = torus.service(root).specBroadcast().counters().specsSent() - specsSentBefore
                - tree.children(root).size();
        assertTrue(!behind.isEmpty() && answers >= behind.size() && answers <= 4L * behind.size(),
                answers + " answers for " + behind.size() + " daemons behind " + SHAPE.coord(silent));
    }

    @Test
    void aJarWhoseBytesDoNotMatchItsDigestIsRefusedAndTheJobNotRegistered() throws Exception {
        String jobId = "job_1700000000000_0013";
        byte[] genuine = "the jar the spec names".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] forged = "a jar somebody swapped".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        JarDigest digest = JarDigest.of(genuine);
        JobConf conf = job(jobId);
        JobSpec spec = new JobSpec(jobId, JobSpec.fromJobConf(conf, List.of()).conf(), List.of(digest));
        int target = SHAPE.index(new Coord(2, 0, 2));
        Coord origin = SHAPE.coord(target);
        StreamId id = new StreamId(0, 0, 254, 0);
        // Sent from a neighbour's transport, as a forwarded broadcast with the target as origin.
        torus.node(SHAPE.index(new Coord(1, 0, 2))).sendService(origin, id,
                Unpooled.wrappedBuffer(SpecMessages.spec(jobId, origin, JobSpecCodec.encode(spec))));
        torus.node(SHAPE.index(new Coord(1, 0, 2))).sendService(origin, id, Unpooled.wrappedBuffer(
                SpecMessages.jarPart(jobId, origin, digest, forged.length, 0, forged, 0, forged.length)));

        SpecBroadcast target0 = torus.service(target).specBroadcast();
        String refusal = TorusWaits.await(target0.whenRefused(jobId), Duration.ofSeconds(10),
                () -> SHAPE.coord(target) + " refusing " + jobId);
        String expected = "jar " + digest + " of " + jobId + " from " + origin
                + " refused: jar digest mismatch: expected " + digest + ", got " + JarDigest.of(forged);
        assertEquals(expected, refusal);
        assertEquals(Optional.of(expected), target0.refusal(jobId));
        assertTrue(torus.registry(target).lookup(jobId).isEmpty());
        assertEquals(0, target0.jobsInFlight());

        // A shuffle of that job rooted there fails with the reason.
        Result r = run(new ShuffleSpec(53L, jobId, 0, 0, origin, ShuffleMode.CAMDOOP, TreeChoice.SIX,
                new TreeSet<>()));
        assertInstanceOf(StreamItem.Failed.class, r.last(), () -> r.last().toString());
        assertTrue(((StreamItem.Failed) r.last()).reason().contains("daemon 2,0,2 refused the spec of " + jobId
                + ": " + expected), r.last().toString());
    }
}
