package org.camdoop.torus.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.wire.FrameWriter;
import org.camdoop.torus.transport.wire.MessageType;
import org.camdoop.torus.transport.wire.StreamId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A neighbour that knows the cluster secret but sends frames naming servers outside the torus, and a layer above that
 * throws: each costs one frame, never the link every job shares.
 */
@Timeout(60)
class RoguePeerTest {

    private static final TorusShape SHAPE = new TorusShape(3, 1, 1);
    private static final Coord ROGUE = new Coord(1, 0, 0);
    private static final Coord NODE = new Coord(2, 0, 0);

    @Test
    void framesNamingServersOutsideTheTorusAreDroppedAndTheLinkStaysUp() throws Exception {
        Topology topo = Nodes.loopback(SHAPE);
        TransportConfig cfg = Nodes.config("s");
        List<String> got = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch hello = new CountDownLatch(1);
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try (TorusNode node = TorusNode.start(cfg, topo, NODE)) {
            node.setServiceHandler((from, id, payload) -> {
                String text = payload.toString(StandardCharsets.UTF_8);
                payload.release();
                got.add(from + " " + text);
                if (text.equals("boom")) {
                    throw new IllegalStateException("the layer above failed");
                }
                if (text.equals("hello")) {
                    hello.countDown();
                }
            });
            Channel rogue = dial(group, topo, cfg);
            int self = SHAPE.index(ROGUE);
            int dst = SHAPE.index(NODE);
            // The attack of issue 11: a START whose source index lies outside the torus.
            rogue.write(service(1000, dst, "start from nowhere"));
            rogue.write(service(-5, dst, "negative source"));
            rogue.write(service(self, 77, "nowhere to go"));
            rogue.write(service(self, dst, "boom"));
            rogue.writeAndFlush(service(self, dst, "hello"));
            assertTrue(hello.await(20, TimeUnit.SECONDS), "a good message after the bad ones still arrives");
            assertEquals(List.of(ROGUE + " boom", ROGUE + " hello"), got);
            assertEquals(4, node.droppedFrames(), "three frames with bad indices and the one the handler failed on");
            assertTrue(node.isLinkUp(SHAPE.portTo(dst, self)), "the link stays up");
            assertTrue(rogue.isActive());
            rogue.close().sync();
        } finally {
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS).sync();
        }
    }

    private static ByteBuf service(int src, int dst, String text) {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        ByteBuf header = FrameWriter.sequencedHeader(io.netty.buffer.ByteBufAllocator.DEFAULT, MessageType.SERVICE,
                src, dst, new StreamId(1, 0, 255, src), 1, body.length);
        return Unpooled.wrappedBuffer(header, Unpooled.wrappedBuffer(body));
    }

    /** Dials the node as its neighbour {@link #ROGUE}, through the real link pipeline and handshake. */
    private static Channel dial(EventLoopGroup group, Topology topo, TransportConfig cfg) throws Exception {
        return RoguePeer.dial(group, topo, cfg, SHAPE, ROGUE, NODE, ByteBuf::release);
    }

}
