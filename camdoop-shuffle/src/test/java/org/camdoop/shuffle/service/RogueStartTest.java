package org.camdoop.shuffle.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.camdoop.shuffle.aggregation.Advance;
import org.camdoop.shuffle.aggregation.ChunkQueueRun;
import org.camdoop.shuffle.daemon.EmbeddedTorus;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.protocol.StreamItem;
import org.camdoop.shuffle.service.net.ShuffleMessages;
import org.camdoop.shuffle.service.vertex.LocalMapOutput;
import org.camdoop.shuffle.testing.WordCounts;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.Port;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.TransportConfig;
import org.camdoop.torus.transport.TransportListener;
import org.camdoop.torus.transport.link.HandshakeProof;
import org.camdoop.torus.transport.link.LinkEvents;
import org.camdoop.torus.transport.link.LinkPipeline;
import org.camdoop.torus.transport.wire.FrameWriter;
import org.camdoop.torus.transport.wire.MessageType;
import org.camdoop.torus.transport.wire.StreamId;
import org.camdoop.torus.trees.TreeChoice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Attack 7 of issue 11 against real daemons: a neighbour holding the cluster secret sends STARTs whose source index,
 * or whose root, lies outside the torus, and one naming a root that is not its sender. Before the fix the first was
 * forwarded and threw on the destination's event loop, closing a link every job shares. Now all are dropped with a
 * log line, the honest link stays up, and a legitimate shuffle on the same daemons gives the reference output.
 */
@Timeout(120)
class RogueStartTest {

    private static final String SECRET = "rogue-start-test-cluster-secret-of-32-bytes";
    private static final String JOB = "job_1700000000000_0007";
    private static final TorusShape SHAPE = new TorusShape(3, 1, 1);
    private static final Coord ROGUE = new Coord(0, 0, 0);
    private static final Coord ROOT = new Coord(1, 0, 0);
    private static final Coord OTHER = new Coord(2, 0, 0);

    @TempDir
    Path dir;

    @Test
    void startsFromOrRootedOutsideTheTorusCostNothingButThemselves() throws Exception {
        TransportConfig config = TransportConfig.of(Map.of(TransportConfig.CLUSTER_SECRET, SECRET,
                TransportConfig.SEGMENT_BYTES, "4096", TransportConfig.MAX_FRAME_BYTES, "8192"));
        FailureView view = FailureView.none(SHAPE).withVacant(ROGUE);
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try (EmbeddedTorus torus = EmbeddedTorus.start(view, config, EmbeddedTorus.Wiring.LOOPBACK_TCP, 2)) {
            JobConf conf = WordCounts.jobWithCombiner(1);
            torus.registerJob(JOB, conf);
            List<Map<String, Integer>> maps = new ArrayList<>();
            TreeSet<String> attempts = new TreeSet<>();
            for (Coord c : List.of(ROOT, OTHER)) {
                int server = SHAPE.index(c);
                String attempt = String.format("attempt_1700000000000_0007_m_%06d_0", server);
                Map<String, Integer> counts = new TreeMap<>();
                for (int i = 0; i < 500; i++) {
                    counts.merge("w" + (i * 7 + server) % 300, 1, Integer::sum);
                }
                org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(dir.resolve(attempt + ".out").toString());
                org.apache.hadoop.fs.Path index = new org.apache.hadoop.fs.Path(dir.resolve(attempt + ".idx").toString());
                WordCounts.write(conf, file, index, counts);
                torus.addMapOutput(server, JOB, new LocalMapOutput(attempt, file, index));
                maps.add(counts);
                attempts.add(attempt);
            }
            List<String> downs = Collections.synchronizedList(new ArrayList<>());
            torus.node(SHAPE.index(OTHER)).addListener(new TransportListener() {
                @Override
                public void linkDown(Port port, Coord peer, String reason) {
                    downs.add(peer + " " + reason);
                }
            });

            Channel rogue = dial(group, config, (InetSocketAddress) torus.node(SHAPE.index(ROOT)).boundAddress());
            ShuffleSpec forged = new ShuffleSpec(99L, JOB, 0, 0, ROOT, ShuffleMode.CAMDOOP, TreeChoice.SIX, attempts);
            ShuffleSpec farRoot = new ShuffleSpec(98L, JOB, 0, 0, new Coord(7, 7, 7), ShuffleMode.CAMDOOP,
                    TreeChoice.SIX, attempts);
            int other = SHAPE.index(OTHER);
            // Through ROOT to OTHER, naming a source outside the torus: ROOT must drop it rather than forward it.
            rogue.write(start(1000, other, forged));
            // From the rogue's own (valid) index, naming a root outside the torus: OTHER ignores it.
            rogue.write(start(SHAPE.index(ROGUE), other, farRoot));
            // From the rogue's own index, naming ROOT as its root: only a root sends its START, so OTHER ignores it.
            ShuffleSpec notItsRoot = new ShuffleSpec(97L, JOB, 0, 0, ROOT, ShuffleMode.CAMDOOP, TreeChoice.SIX,
                    attempts);
            rogue.writeAndFlush(start(SHAPE.index(ROGUE), other, notItsRoot));

            ShuffleSpec legit = new ShuffleSpec(42L, JOB, 0, 1, ROOT, ShuffleMode.CAMDOOP, TreeChoice.SIX, attempts);
            SortedMap<String, Long> sums = drain(torus.service(SHAPE.index(ROOT)).startShuffle(legit));
            assertEquals(WordCounts.reference(maps, 0, 1), sums);
            assertTrue(downs.isEmpty(), "the link ROOT-OTHER never went down: " + downs);
            assertEquals(1, torus.service(other).counters().snapshot().peerStarts(),
                    "OTHER took the legitimate START only");
            assertTrue(torus.node(SHAPE.index(ROOT)).droppedFrames() >= 1, "the forged source was dropped at ROOT");
            assertTrue(rogue.isActive(), "even the rogue's own link stays up: bad frames cost one frame each");
            rogue.close().sync();
        } finally {
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS).sync();
        }
    }

    private static ByteBuf start(int src, int dst, ShuffleSpec spec) {
        byte[] body = ShuffleMessages.start(spec, org.camdoop.shuffle.service.net.StartProof.NONE);
        ByteBuf header = FrameWriter.sequencedHeader(ByteBufAllocator.DEFAULT, MessageType.SERVICE, src, dst,
                new StreamId(spec.streamKey(), spec.partition(), 255, src), 1, body.length);
        return Unpooled.wrappedBuffer(header, Unpooled.wrappedBuffer(body));
    }

    private static SortedMap<String, Long> drain(RootStream root) throws Exception {
        ChunkQueueRun records = new ChunkQueueRun("root");
        while (true) {
            StreamItem n = root.next(Duration.ofSeconds(60));
            if (n instanceof StreamItem.Chunk c) {
                records.offer(c.bytes(), c.length());
                continue;
            }
            assertInstanceOf(StreamItem.End.class, n, String.valueOf(n));
            records.finish();
            SortedMap<String, Long> sums = new TreeMap<>((a, b) -> new Text(a).compareTo(new Text(b)));
            while (records.advance() == Advance.RECORD) {
                String key = WordCounts.text(records.key().array(), records.key().offset(), records.key().length());
                sums.merge(key, (long) WordCounts.intValue(records.value().array(), records.value().offset(),
                        records.value().length()), Long::sum);
            }
            return sums;
        }
    }

    private static Channel dial(EventLoopGroup group, TransportConfig config, InetSocketAddress to) throws Exception {
        CompletableFuture<Channel> up = new CompletableFuture<>();
        LinkEvents events = new LinkEvents() {
            @Override
            public void established(Channel ch, int peer, long peerIncarnation) {
                up.complete(ch);
            }

            @Override
            public void routedFrame(int peer, ByteBuf frame) {
                frame.release();
            }

            @Override
            public void writable(Channel ch, int peer) {
            }

            @Override
            public void closed(Channel ch, int peer, String reason) {
            }
        };
        new Bootstrap().group(group).channel(NioSocketChannel.class)
                .handler(new LinkPipeline(config.linkSettings(), SHAPE, ROGUE, 1L, ROOT, new HandshakeProof(SECRET),
                        System::nanoTime, events))
                .connect(new InetSocketAddress("127.0.0.1", to.getPort())).sync();
        return up.get(30, TimeUnit.SECONDS);
    }
}
