package org.camdoop.shuffle.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.hadoop.io.Text;
import org.camdoop.shuffle.aggregation.Advance;
import org.camdoop.shuffle.aggregation.ChunkQueueRun;
import org.camdoop.shuffle.daemon.EmbeddedTorus;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.protocol.StreamItem;
import org.camdoop.shuffle.service.net.CutMessages;
import org.camdoop.shuffle.service.plan.ShufflePlan;
import org.camdoop.shuffle.service.plan.VertexPlan;
import org.camdoop.shuffle.testing.WordCounts;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.TransportConfig;
import org.camdoop.torus.transport.wire.StreamId;
import org.camdoop.torus.trees.TreeChoice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * CUTs no root asked for (docs/security.md): one from a daemon that is not the shuffle's root is ignored, and the
 * shuffle gives exactly the reference; one written with the root's index (a peer holding the cluster secret can write
 * any source) cuts the parent, whose repair then never comes: the cut vertex fails after the spec wait and 12 s, and
 * the reducer learns why, instead of waiting for good.
 */
@Timeout(120)
class ForgedCutTest {

    private static final String JOB = "job_1700000000000_0051";
    private static final TorusShape SHAPE = TorusShape.parse("3x3x3");
    private static final int REDUCERS = 2;
    private static final long SPEC_WAIT_MS = 1000;
    /** A server that is not a neighbour of the root 0,0,0, with children in some tree. */
    private static final int FAILED = SHAPE.index(new Coord(1, 1, 1));

    @TempDir
    Path dir;

    private static TransportConfig config() {
        return TransportConfig.of(Map.of(TransportConfig.CLUSTER_SECRET, "forged-cut-test-secret-of-32-bytes-long",
                TransportConfig.SEGMENT_BYTES, "4096", TransportConfig.MAX_FRAME_BYTES, "8192",
                // Slow links and short windows: the parents still take their children's streams when the CUT comes.
                TransportConfig.SHAPING_BYTES_PER_SECOND, "400000", TransportConfig.SHAPING_BURST_BYTES, "8192",
                TransportConfig.MAX_BUFFERS_PER_STREAM, "2"));
    }

    @Test
    void aCutFromADaemonThatIsNotTheRootIsIgnored() throws Exception {
        try (EmbeddedTorus torus = start()) {
            Running run = startShuffle(torus);
            // From the failed vertex's own server, which is no root of anything.
            forge(torus, FAILED, run.spec());

            Drained got = drain(run.first(), run.root());
            assertInstanceOf(StreamItem.End.class, got.last(), got.last()::toString);
            assertEquals(WordCounts.reference(run.job().maps(), 1, REDUCERS), got.sums());
            assertEquals(0, torus.service(0).counters().snapshot().restarts() + torus.service(0).counters()
                    .snapshot().repairs(), "nothing was repaired or restarted");
        }
    }

    @Test
    void aCutWhoseRepairNeverComesFailsTheShuffleWithTheReason() throws Exception {
        try (EmbeddedTorus torus = start()) {
            Running run = startShuffle(torus);
            long forged = System.nanoTime();
            // Written with the root's own index, as a forger could; the root itself asked for nothing.
            forge(torus, 0, run.spec());

            Drained got = drain(run.first(), run.root());
            assertInstanceOf(StreamItem.Failed.class, got.last(), got.last()::toString);
            String reason = ((StreamItem.Failed) got.last()).reason();
            long waitMs = SPEC_WAIT_MS + StartAcks.MAX_RETRY_MS + 2 * TreeRepairs.CUT_WAIT_MS;
            assertTrue(reason.contains("for a repair that did not come within " + waitMs + " ms"), reason);
            assertTrue(System.nanoTime() - forged >= waitMs * 1_000_000, "the vertex waited for its repair first");
        }
    }

    private static EmbeddedTorus start() throws Exception {
        return EmbeddedTorus.start(FailureView.none(SHAPE), config(), EmbeddedTorus.Wiring.IN_JVM, 2, SPEC_WAIT_MS);
    }

    /** A shuffle under way: its map outputs, spec, root stream and the first chunk the reducer took. */
    private record Running(TorusWordCounts job, ShuffleSpec spec, RootStream root, StreamItem first) {
    }

    /** Map outputs on every server but {@link #FAILED}, and a shuffle started and under way (a chunk arrived). */
    private Running startShuffle(EmbeddedTorus torus) throws Exception {
        TorusWordCounts job = TorusWordCounts.write(torus, dir, JOB, WordCounts.jobWithCombiner(REDUCERS),
                s -> s != FAILED, 51, 12000, 2000);
        ShuffleSpec spec = new ShuffleSpec(51L, JOB, 1, 0, new Coord(0, 0, 0), ShuffleMode.CAMDOOP, TreeChoice.SIX,
                job.attempts());
        RootStream root = torus.service(0).startShuffle(spec);
        StreamItem first = root.next(Duration.ofSeconds(30));
        assertInstanceOf(StreamItem.Chunk.class, first);
        return new Running(job, spec, root, first);
    }

    /** Sends, as server {@code from}, a CUT of the failed vertex's parent in every tree where it has children. */
    private static void forge(EmbeddedTorus torus, int from, ShuffleSpec spec) {
        var trees = spec.trees().build(SHAPE, 0);
        for (VertexPlan v : new ShufflePlan(spec, FailureView.none(SHAPE)).forServer(FAILED)) {
            if (v.vertex() != FAILED || v.inputs().isEmpty()) {
                continue;
            }
            CutMessages.Cut cut = new CutMessages.Cut(spec.streamKey(), spec.partition(), v.tree(),
                    trees.parent(v.tree(), FAILED), FAILED, 0, 1);
            torus.node(from).sendService(SHAPE.coord(v.output().orElseThrow().receiverHost()),
                    new StreamId(spec.streamKey(), spec.partition(), ControlTrees.CONTROL, from),
                    Unpooled.wrappedBuffer(CutMessages.cut(cut)));
        }
    }

    private record Drained(SortedMap<String, Long> sums, StreamItem last) {
    }

    /** Reads the root stream to its end, {@code first} (a chunk taken already) first. */
    private static Drained drain(StreamItem first, RootStream root) throws Exception {
        ChunkQueueRun records = new ChunkQueueRun("reducer");
        StreamItem n = first;
        while (n instanceof StreamItem.Chunk c) {
            records.offer(c.bytes(), c.length());
            n = root.next(Duration.ofSeconds(60));
        }
        records.finish();
        SortedMap<String, Long> sums = new TreeMap<>((a, b) -> new Text(a).compareTo(new Text(b)));
        while (records.advance() == Advance.RECORD) {
            sums.merge(WordCounts.text(records.key().array(), records.key().offset(), records.key().length()),
                    (long) WordCounts.intValue(records.value().array(), records.value().offset(),
                            records.value().length()), Long::sum);
        }
        return new Drained(sums, n);
    }
}
