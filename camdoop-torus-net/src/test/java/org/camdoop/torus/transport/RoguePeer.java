package org.camdoop.torus.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.link.HandshakeProof;
import org.camdoop.torus.transport.link.LinkEvents;
import org.camdoop.torus.transport.link.LinkPipeline;

/** A test's own end of a link: dials a real node as one of its neighbours, with the real pipeline and handshake. */
final class RoguePeer {

    private RoguePeer() {
    }

    /**
     * Dials {@code node} as its neighbour {@code as}, and returns the link's channel once established; every routed
     * frame the node sends over it goes to {@code frames}, which owns it.
     */
    static Channel dial(EventLoopGroup group, Topology topo, TransportConfig cfg, TorusShape shape, Coord as,
            Coord node, Consumer<ByteBuf> frames) throws Exception {
        CompletableFuture<Channel> up = new CompletableFuture<>();
        LinkEvents events = new LinkEvents() {
            @Override
            public void established(Channel ch, int peer, long peerIncarnation) {
                up.complete(ch);
            }

            @Override
            public void routedFrame(int peer, ByteBuf frame) {
                frames.accept(frame);
            }

            @Override
            public void writable(Channel ch, int peer) {
            }

            @Override
            public void closed(Channel ch, int peer, String reason) {
            }
        };
        InetSocketAddress a = (InetSocketAddress) topo.address(shape.index(node));
        new Bootstrap().group(group).channel(NioSocketChannel.class)
                .handler(new LinkPipeline(cfg.linkSettings(), shape, as, 1L, node,
                        new HandshakeProof(cfg.clusterSecret()), System::nanoTime, events))
                .connect(new InetSocketAddress(a.getHostString(), a.getPort())).sync();
        return up.get(20, TimeUnit.SECONDS);
    }
}
