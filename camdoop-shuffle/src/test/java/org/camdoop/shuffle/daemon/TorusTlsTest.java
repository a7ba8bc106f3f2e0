package org.camdoop.shuffle.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.SslHandler;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.Topology;
import org.camdoop.torus.transport.TorusNode;
import org.camdoop.torus.transport.TransportConfig;
import org.camdoop.torus.transport.link.HandshakeProof;
import org.camdoop.torus.transport.link.LinkEvents;
import org.camdoop.torus.transport.link.LinkPipeline;
import org.camdoop.torus.transport.link.LinkTls;
import org.camdoop.torus.transport.stream.InboundHandler;
import org.camdoop.torus.transport.stream.InboundStream;
import org.camdoop.torus.transport.stream.OutboundStream;
import org.camdoop.torus.transport.wire.StreamId;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS on torus links with key material from Hadoop's ssl-server.xml and ssl-client.xml: two daemons exchange a stream
 * over TLS, and a neighbour whose certificate the truststore does not hold is refused, secret or not.
 */
@Timeout(120)
class TorusTlsTest {

    private static final TorusShape SHAPE = new TorusShape(2, 1, 1);
    private static final Coord A = new Coord(0, 0, 0);
    private static final Coord B = new Coord(1, 0, 0);
    private static final String SECRET = "torus-tls-test-cluster-secret-of-32-bytes";

    @TempDir
    static Path dir;
    private static Configuration nodes;
    private static Configuration rogue;

    @BeforeAll
    static void keys() throws Exception {
        Path node = TestKeystores.keyPair(dir, "node");
        Path stranger = TestKeystores.keyPair(dir, "stranger");
        Path trust = TestKeystores.trustStore(dir, "cluster-trust", node);
        nodes = conf();
        TestKeystores.sslFiles(nodes, dir, "nodes", node, trust);
        // The stranger trusts the cluster, and knows the secret, but the cluster does not trust its certificate.
        rogue = conf();
        TestKeystores.sslFiles(rogue, dir, "rogue", stranger, TestKeystores.trustStore(dir, "rogue-trust", node));
    }

    private static Configuration conf() {
        Configuration c = new Configuration(false);
        c.set(TransportConfig.CLUSTER_SECRET, SECRET);
        c.setBoolean(TransportConfig.SSL_ENABLED, true);
        c.set(TransportConfig.SEGMENT_BYTES, "1024");
        c.set(TransportConfig.MAX_FRAME_BYTES, "2048");
        c.set(TransportConfig.BUFFER_BUDGET_BYTES, String.valueOf(64 * 1024));
        return c;
    }

    private static Topology loopback() throws Exception {
        Map<Coord, InetSocketAddress> m = new HashMap<>();
        for (int i = 0; i < SHAPE.size(); i++) {
            try (ServerSocket s = new ServerSocket(0)) {
                m.put(SHAPE.coord(i), InetSocketAddress.createUnresolved("127.0.0.1", s.getLocalPort()));
            }
        }
        return Topology.tcp(SHAPE, m);
    }

    private static LinkTls tls(Configuration c) {
        return TorusTls.from(c, DaemonConfig.from(c).transport()).orElseThrow();
    }

    @Test
    void twoDaemonsExchangeAStreamOverTls() throws Exception {
        Topology topo = loopback();
        TransportConfig cfg = DaemonConfig.from(nodes).transport();
        try (TorusNode a = TorusNode.start(cfg, topo, A, tls(nodes));
                TorusNode b = TorusNode.start(cfg, topo, B, tls(nodes))) {
            assertTrue(a.awaitLinksUp(FailureView.none(SHAPE), Duration.ofSeconds(30)), "links up over TLS");
            StreamId id = new StreamId(3, 0, 0, 0);
            List<Integer> got = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch ended = new CountDownLatch(1);
            b.openInbound(id, A, new InboundHandler() {
                @Override
                public void onData(InboundStream s, long seq, ByteBuf data) {
                    got.add(data.getInt(data.readerIndex()));
                    data.release();
                    s.release(1);
                }

                @Override
                public void onEnd(InboundStream s, ByteBuf payload) {
                    payload.release();
                    ended.countDown();
                }
            });
            OutboundStream out = a.openOutbound(id, B);
            for (int i = 0; i < 300; i++) {
                out.write(Unpooled.buffer(512).writeInt(i).writeZero(508));
            }
            out.end(Unpooled.EMPTY_BUFFER);
            assertTrue(ended.await(30, TimeUnit.SECONDS), "END arrives");
            List<Integer> expected = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                expected.add(i);
            }
            assertEquals(expected, got);
            out.completion().get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aNeighbourWithoutATrustedCertificateIsRefused() throws Exception {
        Topology topo = loopback();
        TransportConfig cfg = DaemonConfig.from(nodes).transport();
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try (TorusNode b = TorusNode.start(cfg, topo, B, tls(nodes))) {
            // The stranger dials B as its neighbour A, through the real link pipeline, with the right secret.
            AtomicBoolean established = new AtomicBoolean();
            LinkEvents events = new LinkEvents() {
                @Override
                public void established(Channel ch, int peer, long peerIncarnation) {
                    established.set(true);
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
            InetSocketAddress addr = (InetSocketAddress) topo.address(SHAPE.index(B));
            Channel ch = new Bootstrap().group(group).channel(NioSocketChannel.class)
                    .handler(new LinkPipeline(cfg.linkSettings(), SHAPE, A, 1L, B, new HandshakeProof(SECRET),
                            System::nanoTime, events, tls(rogue)))
                    .connect(new InetSocketAddress(addr.getHostString(), addr.getPort())).sync().channel();
            assertTrue(ch.closeFuture().await(30, TimeUnit.SECONDS), "B closes the connection");
            assertFalse(established.get(), "no link with an untrusted certificate");
            assertFalse(b.linksUp(FailureView.none(SHAPE)));
            assertTrue(ch.pipeline().get(SslHandler.class) == null || !ch.isActive());
        } finally {
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS).sync();
        }
    }

    @Test
    void missingKeyMaterialIsAClearStartUpError() throws Exception {
        Configuration c = conf();
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                () -> TorusTls.from(c, DaemonConfig.from(c).transport()));
        assertEquals("camdoop.transport.ssl.enabled is true but ssl-server.xml (hadoop.ssl.server.conf) is not on the"
                + " class path", none.getMessage());
        c.set("hadoop.ssl.client.conf", nodes.get("hadoop.ssl.client.conf"));
        c.set("hadoop.ssl.server.conf", dir.resolve("no-such-ssl-server.xml").toString());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TorusTls.from(c, DaemonConfig.from(c).transport()));
        assertEquals("hadoop.ssl.server.conf names " + dir.resolve("no-such-ssl-server.xml")
                + ", which is not a file", e.getMessage());
        Path empty = dir.resolve("empty-ssl-server.xml");
        java.nio.file.Files.writeString(empty, "<?xml version=\"1.0\"?>\n<configuration/>\n");
        c.set("hadoop.ssl.server.conf", empty.toString());
        e = assertThrows(IllegalArgumentException.class, () -> TorusTls.from(c, DaemonConfig.from(c).transport()));
        assertEquals(empty + " does not set ssl.server.keystore.location (needed by camdoop.transport.ssl.enabled)",
                e.getMessage());
    }
}
