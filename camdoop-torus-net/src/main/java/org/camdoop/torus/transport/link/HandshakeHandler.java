package org.camdoop.torus.transport.link;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
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
import org.camdoop.torus.transport.wire.RoutedFrames;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens a link: agrees the protocol version, checks both coordinates and has each side prove the cluster secret.
 * <pre>
 * dialer                         acceptor
 *   HELLO(v, me, you, nD, iD)  --&gt;
 *                          &lt;--   HELLO(v, me, you, nA, iA)
 *   AUTH(hmac(DIALER, dialer, iD, acceptor, iA, nA, nD)) --&gt;
 *                          &lt;--   AUTH(hmac(ACCEPTOR, acceptor, iA, dialer, iD, nD, nA)), WELCOME
 * </pre>
 * {@code iD} and {@code iA} are the two daemons' incarnations: which run of each daemon process this link joins
 * ({@link LinkEstablished#peerIncarnation()}); a restarted daemon announces a larger one. Each proof names its
 * verifier as the verifier's HELLO announced it, and each side verifies against itself, so a proof relayed to another
 * daemon than the one it was made for fails there.
 * The dialer proves first and the acceptor proves only after verifying it: a process that merely connects to a
 * daemon's port learns no HMAC computed with the secret, so it has nothing to guess the secret against offline (a
 * dialer, which chose whom to call by the topology file, still proves to whatever listens there; TLS with mutual
 * authentication closes that gap). Any failure sends an ERROR frame naming the reason, logs it and closes the
 * connection. On success it fires {@link LinkEstablished} and removes itself.
 *
 * <p>One instance per channel; all state belongs to the channel's event loop.
 */
public final class HandshakeHandler extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(HandshakeHandler.class);

    private enum State { AWAIT_HELLO, AWAIT_AUTH, AWAIT_WELCOME, DONE }

    private final Role role;
    private final TorusShape shape;
    private final Coord self;
    private final Coord expectedPeer;
    private final HandshakeProof proof;
    private final long timeoutNanos;
    private final int version;
    private final long incarnation;
    private final byte[] myNonce = HandshakeProof.newNonce();

    private State state = State.AWAIT_HELLO;
    private Coord peer;
    private byte[] peerNonce;
    private long peerIncarnation;
    private ScheduledFuture<?> timeout;

    /**
     * @param expectedPeer the neighbour a dialer means to reach; {@code null} for an acceptor
     * @param version      the protocol version to announce ({@link FrameLayout#PROTOCOL_VERSION} except in tests)
     * @param incarnation  this daemon's incarnation, announced and proved
     */
    public HandshakeHandler(Role role, TorusShape shape, Coord self, long incarnation, Coord expectedPeer,
            HandshakeProof proof, long timeoutNanos, int version) {
        this.role = role;
        this.shape = shape;
        this.self = self;
        this.expectedPeer = expectedPeer;
        this.proof = proof;
        this.timeoutNanos = timeoutNanos;
        this.version = version;
        this.incarnation = incarnation;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        timeout = ctx.executor().schedule(() -> {
            if (state != State.DONE) {
                refuse(ctx, ErrorCode.HANDSHAKE_TIMEOUT, "handshake not completed within "
                        + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms");
            }
        }, timeoutNanos, TimeUnit.NANOSECONDS);
        if (role == Role.DIALER) {
            ctx.writeAndFlush(FrameWriter.hello(ctx.alloc(), version, self, expectedPeer, myNonce, incarnation));
        }
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        cancelTimeout();
        super.channelInactive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf f = (ByteBuf) msg;
        try {
            MessageType type = RoutedFrames.type(f);
            if (type == MessageType.ERROR) {
                Message.Error e = (Message.Error) Messages.decode(f);
                LOG.warn("{} refused the link from {}: {}: {}", ctx.channel().remoteAddress(), self, e.code(), e.text());
                state = State.DONE;
                ctx.fireUserEventTriggered(new LinkRefused(e.code() + ": " + e.text()));
                ctx.close();
                return;
            }
            step(ctx, type, f);
        } finally {
            f.release();
        }
    }

    private void step(ChannelHandlerContext ctx, MessageType type, ByteBuf f) {
        switch (state) {
            case AWAIT_HELLO -> {
                if (type != MessageType.HELLO) {
                    violation(ctx, type);
                    return;
                }
                Message.Hello h = (Message.Hello) Messages.decode(f);
                if (!checkHello(ctx, h)) {
                    return;
                }
                peer = h.from();
                peerNonce = h.nonce();
                peerIncarnation = h.incarnation();
                if (role == Role.ACCEPTOR) {
                    // Only our nonce: the acceptor proves nothing before the dialer has.
                    ctx.writeAndFlush(FrameWriter.hello(ctx.alloc(), version, self, peer, myNonce, incarnation));
                } else {
                    ctx.writeAndFlush(FrameWriter.auth(ctx.alloc(),
                            proof.prove(Role.DIALER, self, incarnation, peer, peerIncarnation, peerNonce, myNonce)));
                }
                state = State.AWAIT_AUTH;
            }
            case AWAIT_AUTH -> {
                if (type != MessageType.AUTH) {
                    violation(ctx, type);
                    return;
                }
                Message.Auth a = (Message.Auth) Messages.decode(f);
                Role peerRole = role == Role.DIALER ? Role.ACCEPTOR : Role.DIALER;
                // Against ourselves as the verifier: a proof the peer made for another daemon is refused here.
                if (!proof.verify(a.proof(), peerRole, peer, peerIncarnation, self, incarnation, myNonce, peerNonce)) {
                    state = State.DONE;
                    refuse(ctx, ErrorCode.BAD_PROOF, "server " + peer
                            + " failed to prove the cluster secret");
                    return;
                }
                if (role == Role.DIALER) {
                    state = State.AWAIT_WELCOME;
                } else {
                    ctx.write(FrameWriter.auth(ctx.alloc(),
                            proof.prove(Role.ACCEPTOR, self, incarnation, peer, peerIncarnation, peerNonce, myNonce)));
                    ctx.writeAndFlush(FrameWriter.bare(ctx.alloc(), MessageType.WELCOME));
                    established(ctx);
                }
            }
            case AWAIT_WELCOME -> {
                if (type != MessageType.WELCOME) {
                    violation(ctx, type);
                    return;
                }
                established(ctx);
            }
            case DONE -> violation(ctx, type);
        }
    }

    private boolean checkHello(ChannelHandlerContext ctx, Message.Hello h) {
        String why = null;
        ErrorCode code = ErrorCode.WRONG_COORDINATE;
        if (h.version() != FrameLayout.PROTOCOL_VERSION) {
            code = ErrorCode.VERSION_MISMATCH;
            why = "protocol version " + h.version() + " is not supported (this daemon speaks version "
                    + FrameLayout.PROTOCOL_VERSION + ")";
        } else if (h.incarnation() <= 0) {
            code = ErrorCode.MALFORMED_FRAME;
            why = "server " + h.from() + " announced incarnation " + h.incarnation() + " (must be positive)";
        } else if (h.incarnation() > System.currentTimeMillis() + FrameLayout.MAX_INCARNATION_AHEAD_MS) {
            code = ErrorCode.MALFORMED_FRAME;
            why = "server " + h.from() + " announced incarnation " + h.incarnation() + ", more than an hour ahead of"
                    + " this daemon's clock (" + System.currentTimeMillis() + "): are their clocks synchronised?";
        } else if (!h.to().equals(self)) {
            why = "this daemon is " + self + ", not " + h.to();
        } else if (role == Role.DIALER && !h.from().equals(expectedPeer)) {
            why = "expected server " + expectedPeer + " but reached " + h.from();
        } else if (!shape.contains(h.from())
                || shape.portTo(shape.index(self), shape.index(h.from())) == null) {
            why = "server " + h.from() + " is not a torus neighbour of " + self + " on " + shape;
        }
        if (why != null) {
            state = State.DONE;
            refuse(ctx, code, why);
            return false;
        }
        return true;
    }

    private void violation(ChannelHandlerContext ctx, MessageType type) {
        state = State.DONE;
        refuse(ctx, ErrorCode.PROTOCOL_VIOLATION, type + " frame during the handshake");
    }

    /** Refuses the peer: tells the handlers after this one, then sends the error and closes. */
    private static void refuse(ChannelHandlerContext ctx, ErrorCode code, String why) {
        ctx.fireUserEventTriggered(new LinkRefused(code + ": " + why));
        ProtocolGuard.refuse(ctx, code, why);
    }

    private void established(ChannelHandlerContext ctx) {
        state = State.DONE;
        cancelTimeout();
        ctx.pipeline().remove(this);
        FrameDecoder frames = ctx.pipeline().get(FrameDecoder.class);
        if (frames != null) {
            frames.handshakeDone();
        }
        LOG.debug("link {} <-> {} established", self, peer);
        ctx.fireUserEventTriggered(new LinkEstablished(shape.index(peer), peerIncarnation));
    }

    private void cancelTimeout() {
        if (timeout != null) {
            timeout.cancel(false);
            timeout = null;
        }
    }
}
