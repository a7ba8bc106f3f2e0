package org.camdoop.torus.transport.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.link.HandshakeProof.Role;
import org.camdoop.torus.transport.wire.ErrorCode;
import org.camdoop.torus.transport.wire.FrameDecoder;
import org.camdoop.torus.transport.wire.FrameLayout;
import org.camdoop.torus.transport.wire.FrameWriter;
import org.camdoop.torus.transport.wire.Message;
import org.camdoop.torus.transport.wire.MessageType;
import org.camdoop.torus.transport.wire.Messages;
import org.camdoop.torus.transport.wire.StreamId;
import org.junit.jupiter.api.Test;

/** The handshake between two embedded channels whose bytes the test carries across. */
class HandshakeHandlerTest {

    private static final TorusShape SHAPE = new TorusShape(3, 3, 3);
    private static final Coord DIALER = new Coord(0, 0, 0);
    private static final Coord ACCEPTOR = new Coord(1, 0, 0);
    private static final long TIMEOUT = 10_000_000_000L;
    private static final String SECRET = "a-cluster-secret-of-at-least-32-bytes";
    private static final String OTHER = "another-cluster-secret-of-32-bytes-or-more";
    private static final int V = FrameLayout.PROTOCOL_VERSION;
    private static final long INCARNATION = 1_764_100_000_000L;

    /** Records LinkEstablished events. */
    static final class Established extends ChannelInboundHandlerAdapter {
        final List<Integer> peers = new ArrayList<>();
        final List<Long> incarnations = new ArrayList<>();

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof LinkEstablished e) {
                peers.add(e.peer());
                incarnations.add(e.peerIncarnation());
            }
        }
    }

    private static EmbeddedChannel channel(Role role, Coord self, Coord expected, String secret, int version,
            Established ev) {
        // Capped until the handshake completes, as on a daemon's links.
        return new EmbeddedChannel(new FrameDecoder(4096, true),
                new HandshakeHandler(role, SHAPE, self, role == Role.DIALER ? INCARNATION : INCARNATION + 1, expected,
                        new HandshakeProof(secret), TIMEOUT, version), ev,
                new ProtocolGuard());
    }

    /** Carries bytes both ways until neither side has anything more to say; returns ERROR frames seen. */
    private static List<Message.Error> shuttle(EmbeddedChannel d, EmbeddedChannel a) {
        List<Message.Error> errors = new ArrayList<>();
        boolean moved = true;
        while (moved) {
            moved = carry(d, a, errors) | carry(a, d, errors);
        }
        return errors;
    }

    private static boolean carry(EmbeddedChannel from, EmbeddedChannel to, List<Message.Error> errors) {
        boolean moved = false;
        for (ByteBuf b; (b = from.readOutbound()) != null; ) {
            moved = true;
            if (b.getByte(b.readerIndex() + FrameLayout.LENGTH_FIELD) == 4) {
                ByteBuf f = b.slice(b.readerIndex() + FrameLayout.LENGTH_FIELD, b.readableBytes() - 4);
                errors.add((Message.Error) Messages.decode(f));
            }
            if (to.isOpen()) {
                to.writeInbound(b);
            } else {
                b.release();
            }
        }
        return moved;
    }

    @Test
    void matchingSecretsAndCoordinatesEstablishTheLink() {
        Established de = new Established();
        Established ae = new Established();
        EmbeddedChannel d = channel(Role.DIALER, DIALER, ACCEPTOR, SECRET, V, de);
        EmbeddedChannel a = channel(Role.ACCEPTOR, ACCEPTOR, null, SECRET, V, ae);
        assertTrue(shuttle(d, a).isEmpty());
        assertEquals(List.of(SHAPE.index(ACCEPTOR)), de.peers);
        assertEquals(List.of(SHAPE.index(DIALER)), ae.peers);
        assertEquals(List.of(INCARNATION + 1), de.incarnations, "each side learns the other's incarnation");
        assertEquals(List.of(INCARNATION), ae.incarnations);
        assertTrue(d.isOpen() && a.isOpen());
        assertEquals(null, d.pipeline().get(HandshakeHandler.class), "the handshake handler removes itself");
        // The pre-handshake cap is lifted: a frame larger than any handshake frame now passes.
        ByteBuf big = FrameWriter.sequencedHeader(a.alloc(), MessageType.SERVICE, 0, 1, new StreamId(1, 0, 253, 0), 1,
                3000);
        a.writeInbound(big.writeZero(3000));
        ByteBuf got = a.readInbound();
        assertEquals(FrameLayout.PAYLOAD + 3000, got.readableBytes());
        got.release();
        assertTrue(a.isOpen());
        d.finishAndReleaseAll();
        a.finishAndReleaseAll();
    }

    @Test
    void badSecretIsRefusedWithBadProof() {
        Established de = new Established();
        Established ae = new Established();
        EmbeddedChannel d = channel(Role.DIALER, DIALER, ACCEPTOR, SECRET, V, de);
        EmbeddedChannel a = channel(Role.ACCEPTOR, ACCEPTOR, null, OTHER, V, ae);
        List<Message.Error> errors = shuttle(d, a);
        // The dialer proves first, so the acceptor is the one that refuses, having proved nothing itself.
        assertEquals(List.of(new Message.Error(ErrorCode.BAD_PROOF,
                "server 0,0,0 failed to prove the cluster secret")), errors);
        assertTrue(de.peers.isEmpty() && ae.peers.isEmpty());
        assertFalse(d.isOpen());
        d.finishAndReleaseAll();
        a.finishAndReleaseAll();
    }

    @Test
    void wrongCoordinateIsRefused() {
        // The dialer believes it reaches 2,0,0; the daemon listening there is 1,0,0.
        EmbeddedChannel d = channel(Role.DIALER, DIALER, new Coord(0, 1, 0), SECRET, V, new Established());
        EmbeddedChannel a = channel(Role.ACCEPTOR, ACCEPTOR, null, SECRET, V, new Established());
        List<Message.Error> errors = shuttle(d, a);
        assertEquals(List.of(new Message.Error(ErrorCode.WRONG_COORDINATE, "this daemon is 1,0,0, not 0,1,0")),
                errors);
        assertFalse(a.isOpen());
        d.finishAndReleaseAll();
        a.finishAndReleaseAll();
    }

    @Test
    void nonNeighbourIsRefused() {
        Coord far = new Coord(1, 1, 1);
        EmbeddedChannel d = channel(Role.DIALER, far, ACCEPTOR, SECRET, V, new Established());
        EmbeddedChannel a = channel(Role.ACCEPTOR, ACCEPTOR, null, SECRET, V, new Established());
        List<Message.Error> errors = shuttle(d, a);
        assertEquals(List.of(new Message.Error(ErrorCode.WRONG_COORDINATE,
                "server 1,1,1 is not a torus neighbour of 1,0,0 on 3x3x3")), errors);
        d.finishAndReleaseAll();
        a.finishAndReleaseAll();
    }

    @Test
    void wrongVersionIsRefused() {
        EmbeddedChannel d = channel(Role.DIALER, DIALER, ACCEPTOR, SECRET, 9, new Established());
        EmbeddedChannel a = channel(Role.ACCEPTOR, ACCEPTOR, null, SECRET, V, new Established());
        List<Message.Error> errors = shuttle(d, a);
        assertEquals(List.of(new Message.Error(ErrorCode.VERSION_MISMATCH,
                "protocol version 9 is not supported (this daemon speaks version 8)")), errors);
        assertFalse(a.isOpen());
        assertFalse(d.isOpen(), "the refused side closes too");
        d.finishAndReleaseAll();
        a.finishAndReleaseAll();
    }

    @Test
    void aVersion4HelloWithoutIncarnationIsRefusedByItsVersion() {
        EmbeddedChannel a = channel(Role.ACCEPTOR, ACCEPTOR, null, SECRET, V, new Established());
        ByteBuf hello = FrameWriter.hello(a.alloc(), 4, DIALER, ACCEPTOR, HandshakeProof.newNonce(), 0);
        // What a version 4 daemon sends: the same HELLO, 8 bytes shorter.
        hello.setInt(0, hello.getInt(0) - Long.BYTES);
        hello.writerIndex(hello.writerIndex() - Long.BYTES);
        a.writeInbound(hello);
        assertEquals(List.of(new Message.Error(ErrorCode.VERSION_MISMATCH,
                "protocol version 4 is not supported (this daemon speaks version 8)")), drain(a));
        assertFalse(a.isOpen());
        a.finishAndReleaseAll();
    }

    @Test
    void anIncarnationThatIsNotPositiveIsRefused() {
        EmbeddedChannel a = channel(Role.ACCEPTOR, ACCEPTOR, null, SECRET, V, new Established());
        a.writeInbound(Messages.encode(a.alloc(), new Message.Hello(V, DIALER, ACCEPTOR, HandshakeProof.newNonce(),
                0)));
        assertEquals(List.of(new Message.Error(ErrorCode.MALFORMED_FRAME,
                "server 0,0,0 announced incarnation 0 (must be positive)")), drain(a));
        a.finishAndReleaseAll();
        // A run more than an hour ahead of this clock: a forged or badly set one, which would outlive any failure.
        EmbeddedChannel b = channel(Role.ACCEPTOR, ACCEPTOR, null, SECRET, V, new Established());
        long ahead = System.currentTimeMillis() + 2 * FrameLayout.MAX_INCARNATION_AHEAD_MS;
        b.writeInbound(Messages.encode(b.alloc(), new Message.Hello(V, DIALER, ACCEPTOR, HandshakeProof.newNonce(),
                ahead)));
        Message.Error e = (Message.Error) drain(b).get(0);
        assertEquals(ErrorCode.MALFORMED_FRAME, e.code());
        assertTrue(e.text().startsWith("server 0,0,0 announced incarnation " + ahead + ", more than an hour ahead"),
                e.text());
        b.finishAndReleaseAll();
    }

    @Test
    void aProofIsBoundToTheIncarnationItsHelloAnnounced() {
        // A relay cannot pass off one run of a daemon as another: the proof covers the incarnation.
        HandshakeProof p = new HandshakeProof(SECRET);
        byte[] n1 = HandshakeProof.newNonce();
        byte[] n2 = HandshakeProof.newNonce();
        byte[] proof = p.prove(Role.DIALER, DIALER, 5L, ACCEPTOR, 7L, n1, n2);
        assertTrue(p.verify(proof, Role.DIALER, DIALER, 5L, ACCEPTOR, 7L, n1, n2));
        assertFalse(p.verify(proof, Role.DIALER, DIALER, 6L, ACCEPTOR, 7L, n1, n2));
        // Nor can it pass a proof made for one daemon, or one run of it, to another.
        assertFalse(p.verify(proof, Role.DIALER, DIALER, 5L, new Coord(0, 1, 0), 7L, n1, n2));
        assertFalse(p.verify(proof, Role.DIALER, DIALER, 5L, ACCEPTOR, 8L, n1, n2));
    }

    @Test
    void aProofRelayedToAnotherNeighbourIsRefused() {
        // M squats on the port of the dialer's dead neighbour 0,1,0 and relays between the dialer and its live
        // neighbour 1,0,0, posing as the dialer there: each side gets the nonces the other chose.
        Coord dead = new Coord(0, 1, 0);
        Established de = new Established();
        Established ve = new Established();
        EmbeddedChannel d = channel(Role.DIALER, DIALER, dead, SECRET, V, de);
        EmbeddedChannel v = channel(Role.ACCEPTOR, ACCEPTOR, null, SECRET, V, ve);
        Message.Hello fromD = (Message.Hello) drain(d).get(0);
        v.writeInbound(Messages.encode(v.alloc(),
                new Message.Hello(V, DIALER, ACCEPTOR, fromD.nonce(), fromD.incarnation())));
        Message.Hello fromV = (Message.Hello) drain(v).get(0);
        d.writeInbound(Messages.encode(d.alloc(), new Message.Hello(V, dead, DIALER, fromV.nonce(),
                fromV.incarnation())));
        Message.Auth auth = (Message.Auth) drain(d).get(0);
        v.writeInbound(Messages.encode(v.alloc(), auth));
        // The dialer's proof names 0,1,0 as its verifier: 1,0,0 refuses it, proving nothing of its own.
        assertEquals(List.of(new Message.Error(ErrorCode.BAD_PROOF, "server 0,0,0 failed to prove the cluster secret")),
                drain(v));
        assertTrue(ve.peers.isEmpty(), "the relay was taken for the dialer");
        assertFalse(v.isOpen());
        d.finishAndReleaseAll();
        v.finishAndReleaseAll();
    }

    @Test
    void aHelloOfTheVersionBeforeIsRefusedByItsVersion() {
        // Version 7 had the HELLO of version 8 (as 6 that of 7, and 5 that of 6): only the version number tells them
        // apart.
        EmbeddedChannel a = channel(Role.ACCEPTOR, ACCEPTOR, null, SECRET, V, new Established());
        a.writeInbound(Messages.encode(a.alloc(), new Message.Hello(V - 1, DIALER, ACCEPTOR,
                HandshakeProof.newNonce(), INCARNATION)));
        assertEquals(List.of(new Message.Error(ErrorCode.VERSION_MISMATCH,
                "protocol version 7 is not supported (this daemon speaks version 8)")), drain(a));
        assertFalse(a.isOpen());
        a.finishAndReleaseAll();
        // And a dialer answered by a version 7 acceptor says so too.
        EmbeddedChannel d = channel(Role.DIALER, DIALER, ACCEPTOR, SECRET, V, new Established());
        drain(d);
        d.writeInbound(Messages.encode(d.alloc(), new Message.Hello(V - 1, ACCEPTOR, DIALER,
                HandshakeProof.newNonce(), INCARNATION)));
        assertEquals(List.of(new Message.Error(ErrorCode.VERSION_MISMATCH,
                "protocol version 7 is not supported (this daemon speaks version 8)")), drain(d));
        d.finishAndReleaseAll();
    }

    @Test
    void aFrameLargerThanAnyHandshakeFrameIsRefusedBeforeTheHandshake() {
        EmbeddedChannel a = channel(Role.ACCEPTOR, ACCEPTOR, null, SECRET, V, new Established());
        // Only the length and a little of the body: the refusal must not wait for (or buffer) the rest.
        ByteBuf head = a.alloc().buffer().writeInt(4000).writeByte(MessageType.SERVICE.code()).writeZero(100);
        a.writeInbound(head);
        assertEquals(List.of(new Message.Error(ErrorCode.FRAME_TOO_LARGE,
                "frame of 4000 bytes before the handshake completed; at most 1028 until then")), drain(a));
        assertFalse(a.isOpen());
        a.finishAndReleaseAll();
        // The largest ERROR a peer sends (its text cut to 1024 bytes) still passes: a refusal keeps its reason.
        Established de = new Established();
        List<String> refusals = new ArrayList<>();
        EmbeddedChannel d = channel(Role.DIALER, DIALER, ACCEPTOR, SECRET, V, de);
        drain(d);
        d.pipeline().addBefore(d.pipeline().context(de).name(), "refusals", new ChannelInboundHandlerAdapter() {
            @Override
            public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                if (evt instanceof LinkRefused r) {
                    refusals.add(r.reason());
                }
            }
        });
        d.writeInbound(FrameWriter.error(d.alloc(), ErrorCode.WRONG_COORDINATE, "x".repeat(2000)));
        assertEquals(List.of(), drain(d), "no FRAME_TOO_LARGE back");
        assertEquals(1, refusals.size());
        assertEquals("WRONG_COORDINATE: " + "x".repeat(1024), refusals.get(0));
        assertFalse(d.isOpen());
        d.finishAndReleaseAll();
    }

    @Test
    void dataBeforeTheHandshakeIsAProtocolViolation() {
        EmbeddedChannel a = channel(Role.ACCEPTOR, ACCEPTOR, null, SECRET, V, new Established());
        a.writeInbound(Messages.encode(a.alloc(), new Message.Heartbeat()));
        ByteBuf out = a.readOutbound();
        assertNotNull(out);
        out.skipBytes(FrameLayout.LENGTH_FIELD);
        assertEquals(new Message.Error(ErrorCode.PROTOCOL_VIOLATION, "HEARTBEAT frame during the handshake"),
                Messages.decode(out));
        out.release();
        assertFalse(a.isOpen());
        a.finishAndReleaseAll();
    }

    @Test
    void theAcceptorProvesNothingUntilTheDialerHasProved() {
        EmbeddedChannel a = channel(Role.ACCEPTOR, ACCEPTOR, null, SECRET, V, new Established());
        byte[] nonce = HandshakeProof.newNonce();
        a.writeInbound(Messages.encode(a.alloc(), new Message.Hello(V, DIALER, ACCEPTOR, nonce, 5L)));
        List<Message> answers = drain(a);
        assertEquals(1, answers.size(), "only a HELLO answers a HELLO: " + answers);
        Message.Hello h = (Message.Hello) answers.get(0);
        // A dialer that cannot prove the secret sends a guess: refused, and still no proof of the acceptor's.
        a.writeInbound(Messages.encode(a.alloc(), new Message.Auth(new byte[FrameLayout.PROOF_BYTES])));
        assertEquals(List.of(new Message.Error(ErrorCode.BAD_PROOF, "server 0,0,0 failed to prove the cluster secret")),
                drain(a));
        assertFalse(a.isOpen());
        // With the secret the same exchange yields the acceptor's proof over both nonces, then WELCOME.
        EmbeddedChannel b = channel(Role.ACCEPTOR, ACCEPTOR, null, SECRET, V, new Established());
        b.writeInbound(Messages.encode(b.alloc(), new Message.Hello(V, DIALER, ACCEPTOR, nonce, 5L)));
        Message.Hello hb = (Message.Hello) drain(b).get(0);
        HandshakeProof p = new HandshakeProof(SECRET);
        b.writeInbound(Messages.encode(b.alloc(),
                new Message.Auth(p.prove(Role.DIALER, DIALER, 5L, ACCEPTOR, hb.incarnation(), hb.nonce(), nonce))));
        List<Message> done = drain(b);
        assertEquals(2, done.size(), done.toString());
        assertTrue(p.verify(((Message.Auth) done.get(0)).proof(), Role.ACCEPTOR, ACCEPTOR, hb.incarnation(), DIALER, 5L,
                nonce, hb.nonce()));
        assertEquals(new Message.Welcome(), done.get(1));
        assertNotNull(h);
        a.finishAndReleaseAll();
        b.finishAndReleaseAll();
    }

    @Test
    void aShortClusterSecretIsRefused() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new HandshakeProof("0123456789abcdef0123456789abcde"));
        assertEquals("the cluster secret has 31 bytes; at least 32 are required", e.getMessage());
    }

    private static List<Message> drain(EmbeddedChannel ch) {
        List<Message> out = new ArrayList<>();
        for (ByteBuf b; (b = ch.readOutbound()) != null; ) {
            b.skipBytes(FrameLayout.LENGTH_FIELD);
            out.add(Messages.decode(b));
            b.release();
        }
        return out;
    }
}
