package org.camdoop.shuffle.service;

import org.camdoop.shuffle.protocol.StreamItem;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.shuffle.protocol.ShuffleSpec;
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
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.TransportConfig;
import org.camdoop.torus.transport.stream.BufferBudget;
import org.camdoop.torus.trees.TreeChoice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many shuffles at once share each daemon's fixed buffer budget; too small a budget fails clearly, never hangs.
 *
 * <p>Netty's leak detection samples here ({@link SampledLeakDetection}): 100 shuffles on 27 daemons pass hundreds of
 * thousands of buffers, and paranoid detection's stack trace of every access of every one filled the 1 GB heap
 * (750,000 trace records) and made the test take four times as long, 45 s against 11 s.
 */
@ExtendWith(SampledLeakDetection.class)
class BoundedMemoryTest {


    private static final String JOB = "job_1700000000000_0011";
    private static final TorusShape SHAPE = TorusShape.parse("3x3x3");

    @TempDir
    Path dir;

    private record Job(List<Map<String, Integer>> maps, TreeSet<String> attempts) {
    }

    private Job write(EmbeddedTorus torus, JobConf conf) throws Exception {
        torus.registerJob(JOB, conf);
        Random rnd = new Random(11);
        List<Map<String, Integer>> maps = new ArrayList<>();
        TreeSet<String> attempts = new TreeSet<>();
        for (int server = 0; server < SHAPE.size(); server++) {
            String attempt = String.format("attempt_1700000000000_0011_m_%06d_0", server);
            Map<String, Integer> counts = new TreeMap<>();
            for (int i = 0; i < 3000; i++) {
                counts.merge("w" + rnd.nextInt(5000), 1, Integer::sum);
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

    private static TransportConfig config(long budgetBytes) {
        return TransportConfig.of(Map.of(TransportConfig.CLUSTER_SECRET, "bounded-memory-test-secret-of-32-bytes",
                TransportConfig.SEGMENT_BYTES, "4096", TransportConfig.MAX_FRAME_BYTES, "8192",
                TransportConfig.BUFFER_BUDGET_BYTES, Long.toString(budgetBytes),
                // This test is about memory. Under a loaded CI run its 27 daemons' event loops fell 5 s behind, the
                // links were declared down and a stream stalled on a flapped link (recovery.md, links): not its subject.
                TransportConfig.HEARTBEAT_TIMEOUT_MS, "60000",
                // Retransmission ticking every 0.5 s: under this load (acknowledgements wait for slow consumers) many
                // streams probe, and probing must neither stall a shuffle nor hold buffers beyond the budget.
                TransportConfig.RETRANSMIT_TIMEOUT_MS, "1000"));
    }

    @Test
    void aHundredPartitionsAtOnceStayWithinEachDaemonsBudget() throws Exception {
        int partitions = 100;
        long budget = 64L << 20;
        // 100 shuffles' STARTs, acknowledgements and data share two event loops for 27 daemons: on a loaded 2-core
        // machine an acknowledgement can come later than the default 30 s wait, which is about lost daemons, not
        // memory. This test is about memory: it waits up to the drain's own bound.
        try (EmbeddedTorus torus = EmbeddedTorus.start(FailureView.none(SHAPE), config(budget),
                EmbeddedTorus.Wiring.IN_JVM, 2, Duration.ofSeconds(110).toMillis())) {
            JobConf conf = WordCounts.jobWithCombiner(partitions);
            Job job = write(torus, conf);
            List<RootStream> roots = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                ShuffleSpec spec = new ShuffleSpec(11L, JOB, p, 0, SHAPE.coord(p % SHAPE.size()), ShuffleMode.CAMDOOP,
                        TreeChoice.SIX, job.attempts());
                roots.add(torus.service(p % SHAPE.size()).startShuffle(spec));
            }
            List<TorusWaits.Drained> results = TorusWaits.drainAll(roots, Duration.ofSeconds(120));
            for (int p = 0; p < partitions; p++) {
                StreamItem last = results.get(p).last();
                assertInstanceOf(StreamItem.End.class, last, last::toString);
                ChunkQueueRun run = results.get(p).records();
                SortedMap<String, Long> sums = new TreeMap<>((a, b) -> new Text(a).compareTo(new Text(b)));
                while (run.advance() == Advance.RECORD) {
                    sums.merge(WordCounts.text(run.key().array(), run.key().offset(), run.key().length()),
                            (long) WordCounts.intValue(run.value().array(), run.value().offset(), run.value().length()),
                            Long::sum);
                }
                assertEquals(WordCounts.reference(job.maps(), p, partitions), sums, "partition " + p);
            }
            for (int s = 0; s < SHAPE.size(); s++) {
                BufferBudget b = torus.node(s).budget();
                assertTrue(b.peakReservedBuffers() <= b.totalBuffers(),
                        "daemon " + SHAPE.coord(s) + " reserved " + b.peakReservedBuffers() + " of " + b.totalBuffers());
            }
            // Every stream of every shuffle gave its buffers back (generous: a loaded 2-core machine acks slowly).
            TorusWaits.noOpenStreams(torus, s -> true, Duration.ofSeconds(30));
        }
    }

    @Test
    void aBudgetTooSmallForTheStreamsFailsTheShuffleClearly() throws Exception {
        // 8 buffers of 4 KB: two streams' worth of minimum reservations per daemon, far fewer than a shuffle opens.
        try (EmbeddedTorus torus = EmbeddedTorus.start(FailureView.none(SHAPE), config(8 * 4096),
                EmbeddedTorus.Wiring.IN_JVM, 2)) {
            Job job = write(torus, WordCounts.jobWithCombiner(1));
            RootStream root = torus.service(13).startShuffle(new ShuffleSpec(11L, JOB, 0, 0, SHAPE.coord(13),
                    ShuffleMode.CAMDOOP, TreeChoice.SIX, job.attempts()));
            StreamItem last = root.drain(60, java.util.concurrent.TimeUnit.SECONDS);
            assertInstanceOf(StreamItem.Failed.class, last, last::toString);
            assertTrue(((StreamItem.Failed) last).reason().contains("cannot set up"), last.toString());
        }
    }
}
