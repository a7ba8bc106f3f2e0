package org.camdoop.torus.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.stream.InboundHandler;
import org.camdoop.torus.transport.stream.InboundStream;
import org.camdoop.torus.transport.stream.OutboundStream;
import org.camdoop.torus.transport.wire.FrameWriter;
import org.camdoop.torus.transport.wire.MessageType;
import org.camdoop.torus.transport.wire.RoutedFrames;
import org.camdoop.torus.transport.wire.StreamId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Frames lost on the way (a hop's transit queue dropped with its connection) are resent as soon as a later frame of
 * the stream arrives past the gap: the receiver flags its CREDIT, and the sender resends everything after the
 * acknowledged position. Real sockets and handshakes between a node and the test's own end of a link; the
 * retransmission timer is set to ten minutes, so it cannot be what repairs.
 */
@Timeout(60)
class GapRepairTest {

    private static final TorusShape SHAPE = new TorusShape(3, 1, 1);
    private static final Coord PEER = new Coord(1, 0, 0);
    private static final Coord NODE = new Coord(2, 0, 0);
    private static final StreamId ID = new StreamId(7, 0, 1, SHAPE.index(PEER));

    private final BlockingQueue<ByteBuf> fromNode = new LinkedBlockingQueue<>();
    private EventLoopGroup group;
    private TorusNode node;
    private Channel peer;

    @BeforeEach
    void start() throws Exception {
        Topology topo = Nodes.loopback(SHAPE);
        TransportConfig cfg = Nodes.config("gap", TransportConfig.RETRANSMIT_TIMEOUT_MS, "600000");
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        node = TorusNode.start(cfg, topo, NODE);
        peer = RoguePeer.dial(group, topo, cfg, SHAPE, PEER, NODE, fromNode::add);
    }

    @AfterEach
    void stop() throws Exception {
        peer.close().sync();
        node.close();
        group.shutdownGracefully(0, 0, TimeUnit.SECONDS).sync();
        fromNode.forEach(ByteBuf::release);
    }

    @Test
    void aFramePastAGapAsksItsSenderForTheLostOnesAtOnce() throws Exception {
        BlockingQueue<Long> delivered = new LinkedBlockingQueue<>();
        InboundStream in = node.openInbound(ID, PEER, new InboundHandler() {
            @Override
            public void onData(InboundStream s, long seq, ByteBuf data) {
                data.release();
                delivered.add(seq);
                s.release(1);
            }

            @Override
            public void onEnd(InboundStream s, ByteBuf payload) {
                payload.release();
            }
        });
        assertNotNull(in);
        release(next(f -> RoutedFrames.type(f) == MessageType.CREDIT), "the window announced");
        peer.writeAndFlush(data(1));
        peer.writeAndFlush(data(3)); // 2 was lost on the way
        ByteBuf gap = next(f -> RoutedFrames.type(f) == MessageType.CREDIT && RoutedFrames.gap(f));
        assertEquals(1, RoutedFrames.acked(gap), "resend after 1");
        gap.release();
        peer.writeAndFlush(data(2));
        peer.writeAndFlush(data(3));
        assertEquals(1L, delivered.poll(20, TimeUnit.SECONDS));
        assertEquals(2L, delivered.poll(20, TimeUnit.SECONDS));
        assertEquals(3L, delivered.poll(20, TimeUnit.SECONDS));
    }

    @Test
    void aCreditFlaggedGapMakesTheSenderResendAfterTheAcknowledgedFrameAtOnce() throws Exception {
        OutboundStream out = node.openOutbound(ID, PEER);
        peer.writeAndFlush(FrameWriter.credit(ByteBufAllocator.DEFAULT, SHAPE.index(PEER), SHAPE.index(NODE), ID, 0,
                8));
        for (int i = 1; i <= 3; i++) {
            out.write(Unpooled.buffer(1).writeByte(i));
        }
        for (long seq = 1; seq <= 3; seq++) {
            assertEquals(seq, seqOf(next(f -> RoutedFrames.type(f) == MessageType.DATA)));
        }
        // As if 2 went missing on the way and 3 came past the gap: the test's end asks for everything after 1.
        peer.writeAndFlush(FrameWriter.credit(ByteBufAllocator.DEFAULT, SHAPE.index(PEER), SHAPE.index(NODE), ID, 1,
                8, true));
        assertEquals(2, seqOf(next(f -> RoutedFrames.type(f) == MessageType.DATA)), "2 sent again at once");
        assertEquals(3, seqOf(next(f -> RoutedFrames.type(f) == MessageType.DATA)));
        out.close(null);
    }

    /** The next frame from the node that {@code wanted} matches, within 20 s; the others are released. */
    private ByteBuf next(Predicate<ByteBuf> wanted) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            ByteBuf f = fromNode.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (f != null && wanted.test(f)) {
                return f;
            }
            if (f != null) {
                f.release();
            }
        }
        throw new AssertionError("no such frame from the node within 20 s");
    }

    private static long seqOf(ByteBuf f) {
        long seq = RoutedFrames.seq(f);
        f.release();
        return seq;
    }

    private static void release(ByteBuf f, String what) {
        assertNotNull(f, what);
        f.release();
    }

    private static ByteBuf data(long seq) {
        ByteBuf header = FrameWriter.sequencedHeader(ByteBufAllocator.DEFAULT, MessageType.DATA, SHAPE.index(PEER),
                SHAPE.index(NODE), ID, seq, 1);
        return Unpooled.wrappedBuffer(header, Unpooled.buffer(1).writeByte((int) seq));
    }
}
