package org.camdoop.torus.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.TooLongFrameException;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.Port;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.link.TransitAllowance;
import org.camdoop.torus.transport.stream.BufferBudget;
import org.camdoop.torus.transport.stream.InboundHandler;
import org.camdoop.torus.transport.stream.InboundStream;
import org.camdoop.torus.transport.wire.FrameDecoder;
import org.camdoop.torus.transport.wire.Messages;
import org.camdoop.torus.transport.wire.ProtocolException;
import org.camdoop.torus.transport.wire.RoutedFrames;
import org.camdoop.torus.transport.wire.StreamId;

/**
 * What an authenticated neighbour sends after the handshake: any bytes go through the real frame decoder into a real
 * {@link NodeRouter} that has an open inbound stream from that neighbour (so DATA, END, CREDIT, URGENT and SERVICE all
 * reach the code that acts on them). Framing errors are refused with the decoder's own exceptions (the link's guard
 * answers them with an ERROR and a close); nothing else escapes from the router; and every byte of the input is
 * released once the stream closes: a frame the router kept or forgot to release would hold the input buffer.
 */
class TorusFrameFuzzTest {

    private static final TorusShape SHAPE = new TorusShape(3, 3, 3);
    private static final int SELF = 0;
    private static final int PEER = SHAPE.neighbour(SELF, Port.PLUS_X);
    private static final int MAX_FRAME = 2048;

    @FuzzTest(maxDuration = "3s")
    void framesFromANeighbourAreActedOnOrRefusedAndAlwaysReleased(byte[] bytes) {
        if (bytes.length == 0) {
            return; // Netty's shared empty buffer has no reference count to check
        }
        EmbeddedChannel ch = new EmbeddedChannel();
        NodeRouter router = new NodeRouter(SHAPE, SELF, 1L, ch.eventLoop(), 1_000_000_000L, 2_000_000_000L,
                FailureView.none(SHAPE), new TransitAllowance(1 << 20));
        router.setServiceHandler((from, id, payload) -> payload.release());
        InboundStream in = new InboundStream(new StreamId(1, 0, 0, PEER), PEER, new InboundHandler() {
            @Override
            public void onData(InboundStream stream, long seq, ByteBuf data) {
                data.release();
                stream.release(1);
            }

            @Override
            public void onEnd(InboundStream stream, ByteBuf payload) {
                payload.release();
            }
        }, new BufferBudget(64 * 1024, 1024, 2, Integer.MAX_VALUE), ch.eventLoop(), router, 16);
        router.register(in);
        ch.pipeline().addLast(new FrameDecoder(MAX_FRAME), new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ByteBuf f = (ByteBuf) msg;
                if (RoutedFrames.type(f).routed()) {
                    router.routedFrame(PEER, f);
                } else {
                    try {
                        Messages.decode(f);
                    } finally {
                        f.release();
                    }
                }
            }
        });
        ByteBuf input = Unpooled.wrappedBuffer(bytes);
        input.retain();
        try {
            ch.writeInbound(input);
        } catch (ProtocolException | TooLongFrameException refused) {
            // a framing error: the guard behind the decoder sends ERROR and closes the link
        }
        ch.runPendingTasks();
        in.close();
        ch.runPendingTasks();
        try {
            ch.finishAndReleaseAll();
        } catch (ProtocolException | TooLongFrameException refused) {
            // the decoder repeats its refusal of a half-read frame when the channel closes
        }
        assertEquals(1, input.refCnt(), "every frame cut from the input was released");
        assertTrue(input.release());
    }
}
