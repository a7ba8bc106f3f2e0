package org.camdoop.torus.transport.link;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import java.util.function.LongSupplier;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.wire.FrameDecoder;
import org.camdoop.torus.transport.wire.FrameLayout;

/**
 * Builds the one pipeline every link uses, over TCP and in-JVM alike:
 * [TLS] - [inbound shaper] - frame decoder - handshake - [admission, accepting side] - heartbeat - link handler -
 * protocol guard.
 * With TLS on, the cluster-secret handshake starts once TLS has (the {@code SslHandler} holds the first HELLO back
 * until then) and runs inside it.
 * Outbound frames are written pre-encoded, so no encoder is needed.
 */
public final class LinkPipeline extends ChannelInitializer<Channel> {

    private final LinkSettings config;
    private final TorusShape shape;
    private final Coord self;
    private final long incarnation;
    private final Coord expectedPeer;
    private final HandshakeProof proof;
    private final LongSupplier nanoClock;
    private final LinkEvents events;
    private final int version;
    private final LinkTls tls;
    /** On the accepting side: the cap on handshakes in progress, shared by every accepted channel. */
    private final HandshakeAdmission admission;

    /**
     * @param incarnation  this daemon's incarnation (which run of its process this is), announced in every handshake
     * @param expectedPeer the neighbour a dialer means to reach, or {@code null} on the accepting side
     */
    public LinkPipeline(LinkSettings config, TorusShape shape, Coord self, long incarnation, Coord expectedPeer,
            HandshakeProof proof, LongSupplier nanoClock, LinkEvents events) {
        this(config, shape, self, incarnation, expectedPeer, proof, nanoClock, events, FrameLayout.PROTOCOL_VERSION,
                null);
    }

    /** As above over TLS when {@code tls} is not {@code null}. */
    public LinkPipeline(LinkSettings config, TorusShape shape, Coord self, long incarnation, Coord expectedPeer,
            HandshakeProof proof, LongSupplier nanoClock, LinkEvents events, LinkTls tls) {
        this(config, shape, self, incarnation, expectedPeer, proof, nanoClock, events, FrameLayout.PROTOCOL_VERSION,
                tls);
    }

    /** As above with an explicit protocol version to announce (tests of version refusal). */
    public LinkPipeline(LinkSettings config, TorusShape shape, Coord self, long incarnation, Coord expectedPeer,
            HandshakeProof proof, LongSupplier nanoClock, LinkEvents events, int version, LinkTls tls) {
        this.tls = tls;
        this.config = config;
        this.shape = shape;
        this.self = self;
        this.incarnation = incarnation;
        this.expectedPeer = expectedPeer;
        this.proof = proof;
        this.nanoClock = nanoClock;
        this.events = events;
        this.version = version;
        this.admission = expectedPeer == null ? new HandshakeAdmission() : null;
    }

    @Override
    protected void initChannel(Channel ch) {
        if (tls != null) {
            io.netty.handler.ssl.SslHandler ssl = expectedPeer == null ? tls.server().newHandler(ch.alloc())
                    : tls.client().newHandler(ch.alloc());
            ssl.setHandshakeTimeoutMillis(java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(
                    config.handshakeTimeoutNanos()));
            ch.pipeline().addLast("tls", ssl);
        }
        HandshakeProof.Role role = expectedPeer == null ? HandshakeProof.Role.ACCEPTOR : HandshakeProof.Role.DIALER;
        ch.pipeline().addLast("frames", new FrameDecoder(config.maxFrameBytes(), true));
        ch.pipeline().addLast("handshake", new HandshakeHandler(role, shape, self, incarnation, expectedPeer, proof,
                config.handshakeTimeoutNanos(), version));
        if (admission != null) {
            ch.pipeline().addLast("admission", admission.newHandler());
        }
        ch.pipeline().addLast("heartbeat", new HeartbeatHandler(nanoClock, config.heartbeatIntervalNanos(),
                config.heartbeatTimeoutNanos()));
        ch.pipeline().addLast("link", new LinkHandler(events));
        ch.pipeline().addLast("guard", new ProtocolGuard());
    }
}
