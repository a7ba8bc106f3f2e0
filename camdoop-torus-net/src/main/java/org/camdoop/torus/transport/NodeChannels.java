package org.camdoop.torus.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.WriteBufferWaterMark;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.function.LongSupplier;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.link.HandshakeProof;
import org.camdoop.torus.transport.link.LinkEvents;
import org.camdoop.torus.transport.link.LinkPipeline;
import org.camdoop.torus.transport.link.LinkTls;
import org.camdoop.torus.transport.link.Transports;

/**
 * The Netty side of one node's links: a bootstrap that dials a neighbour, and the listening channel that accepts the
 * others, both on the node's event loop and with the same pipeline ({@link LinkPipeline}), socket options and write
 * buffer marks; and a bare bootstrap with which the accepting side of a link sees whether a neighbour still listens.
 * Built once by {@link TorusNode}.
 */
final class NodeChannels {

    private final TransportConfig config;
    private final TorusShape shape;
    private final Coord self;
    private final long incarnation;
    private final EventLoop loop;
    private final LongSupplier nanoClock;
    private final LinkEvents events;
    private final LinkTls tls;
    private final Transports kind;
    private final HandshakeProof proof;
    private final WriteBufferWaterMark marks;

    NodeChannels(TransportConfig config, Topology topology, Coord self, long incarnation, EventLoop loop,
            LongSupplier nanoClock, LinkEvents events, LinkTls tls) {
        this.config = config;
        this.shape = topology.shape();
        this.self = self;
        this.incarnation = incarnation;
        this.loop = loop;
        this.nanoClock = nanoClock;
        this.events = events;
        this.tls = tls;
        this.kind = transportOf(topology, config);
        this.proof = new HandshakeProof(config.clusterSecret());
        this.marks = new WriteBufferWaterMark(config.writeBufferHighBytes() / 2, config.writeBufferHighBytes());
    }

    /** In-JVM channels for an in-JVM topology, else sockets (epoll when configured and available, NIO otherwise). */
    static Transports transportOf(Topology topology, TransportConfig config) {
        return topology.inJvm() ? Transports.LOCAL : Transports.socket(config.nativeTransport());
    }

    /** A probe that gets no answer within this long proves nothing: a host that is down or a cable times out. */
    private static final int PROBE_CONNECT_TIMEOUT_MS = 5_000;

    /** A bootstrap that dials {@code peer}, expecting it to prove it is that neighbour. */
    Bootstrap dialer(int peer) {
        Bootstrap dial = new Bootstrap().group(loop).channel(kind.channelClass())
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, marks)
                .handler(new LinkPipeline(config.linkSettings(), shape, self, incarnation, shape.coord(peer), proof,
                        nanoClock, events, tls));
        if (kind != Transports.LOCAL) {
            dial.option(ChannelOption.TCP_NODELAY, true);
        }
        return dial;
    }

    /**
     * A bootstrap that only connects, with nothing in the pipeline: the side of a link that accepts uses it once its
     * connection drops, to see whether anything still listens at the neighbour's address (Link#checkPeerListens).
     */
    Bootstrap prober() {
        return new Bootstrap().group(loop).channel(kind.channelClass())
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, PROBE_CONNECT_TIMEOUT_MS)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        // The connection is closed as soon as it is made; a reset meanwhile is no incident.
                        ch.pipeline().addLast(new io.netty.channel.ChannelInboundHandlerAdapter() {
                            @Override
                            public void exceptionCaught(io.netty.channel.ChannelHandlerContext ctx, Throwable cause) {
                                ctx.close();
                            }
                        });
                    }
                });
    }

    /** Binds {@code address} and accepts links from any neighbour that proves itself; waits for the bind. */
    Channel listen(SocketAddress address) throws InterruptedException {
        ServerBootstrap sb = new ServerBootstrap().group(loop, loop).channel(kind.serverChannelClass())
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, marks)
                .childHandler(new LinkPipeline(config.linkSettings(), shape, self, incarnation, null, proof, nanoClock,
                        events, tls));
        if (kind != Transports.LOCAL) {
            sb.childOption(ChannelOption.TCP_NODELAY, true);
        }
        return sb.bind(bindable(address)).sync().channel();
    }

    private static SocketAddress bindable(SocketAddress a) {
        if (a instanceof InetSocketAddress i && i.isUnresolved()) {
            return new InetSocketAddress(i.getHostString(), i.getPort());
        }
        return a;
    }
}
