package org.camdoop.torus.transport.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.Set;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.link.HandshakeProof.Role;
import org.camdoop.torus.transport.wire.FrameDecoder;
import org.camdoop.torus.transport.wire.FrameLayout;
import org.camdoop.torus.transport.wire.MessageType;

/**
 * Anyone who can reach a daemon's torus port talks to the accepting side of the handshake first. Whatever bytes they
 * send: no link is established without the cluster secret, nothing escapes the link's guard, the acceptor says
 * nothing but its HELLO and an ERROR (in particular no AUTH: it proves nothing to a dialer that has proved nothing),
 * and the input is released.
 */
class HandshakeFuzzTest {

    private static final TorusShape SHAPE = new TorusShape(3, 3, 3);
    private static final Coord ACCEPTOR = new Coord(1, 0, 0);
    private static final String SECRET = "a-cluster-secret-of-at-least-32-bytes";
    private static final Set<Integer> ACCEPTOR_MAY_SAY = Set.of(MessageType.HELLO.code(), MessageType.ERROR.code());

    @FuzzTest(maxDuration = "3s")
    void noSecretNoLinkAndNothingEscapes(byte[] bytes) {
        if (bytes.length == 0) {
            return; // Netty's shared empty buffer has no reference count to check
        }
        HandshakeHandlerTest.Established established = new HandshakeHandlerTest.Established();
        EmbeddedChannel acceptor = new EmbeddedChannel(new FrameDecoder(4096, true),
                new HandshakeHandler(Role.ACCEPTOR, SHAPE, ACCEPTOR, 1L, null, new HandshakeProof(SECRET),
                        10_000_000_000L, FrameLayout.PROTOCOL_VERSION), established, new ProtocolGuard());
        ByteBuf input = Unpooled.wrappedBuffer(bytes);
        input.retain();
        acceptor.writeInbound(input);
        acceptor.checkException();
        assertTrue(established.peers.isEmpty(), "a link without the secret");
        for (ByteBuf out; (out = acceptor.readOutbound()) != null; ) {
            try {
                int type = out.getUnsignedByte(out.readerIndex() + FrameLayout.LENGTH_FIELD + FrameLayout.TYPE);
                assertTrue(ACCEPTOR_MAY_SAY.contains(type), "the acceptor sent a frame of type " + type);
            } finally {
                out.release();
            }
        }
        acceptor.finishAndReleaseAll();
        assertEquals(1, input.refCnt(), "every frame cut from the input was released");
        assertTrue(input.release());
    }
}
