package org.camdoop.torus.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.Port;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.link.Link;
import org.camdoop.torus.transport.stream.OutboundStream;
import org.camdoop.torus.transport.wire.StreamId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Real sockets on loopback. */
@Timeout(60)
class TcpLinkTest {

    private static final Coord A = new Coord(0, 0, 0);
    private static final Coord B = new Coord(1, 0, 0);
    private static final Coord C = new Coord(2, 0, 0);

    @Test
    void badSecretIsRefusedAndOtherLinksAreUnaffected() throws Exception {
        TorusShape shape = new TorusShape(3, 1, 1);
        Topology topo = Nodes.loopback(shape);
        // Each of A and B dials C; every attempt is refused (C cannot prove the secret): wait for a few of them.
        CountDownLatch aRefused = new CountDownLatch(3);
        CountDownLatch bRefused = new CountDownLatch(3);
        try (TorusNode a = TorusNode.start(Nodes.config("right"), topo, A);
                TorusNode b = TorusNode.start(Nodes.config("right"), topo, B);
                TorusNode c = TorusNode.start(Nodes.config("wrong"), topo, C)) {
            a.addListener(refusalCounter(aRefused));
            b.addListener(refusalCounter(bRefused));
            Nodes.await(CompletableFuture.allOf(Nodes.linkUp(a, Port.PLUS_X), Nodes.linkUp(b, Port.MINUS_X)), 10_000,
                    "link A-B up on both sides");
            // C dials nobody first (higher index) but A and B dial C: several refused attempts, and no link.
            assertTrue(aRefused.await(20, TimeUnit.SECONDS), "A's handshakes with C refused");
            assertTrue(bRefused.await(20, TimeUnit.SECONDS), "B's handshakes with C refused");
            assertFalse(a.isLinkUp(Port.MINUS_X), "A-C must be refused: C has another secret");
            assertFalse(b.isLinkUp(Port.PLUS_X), "B-C must be refused: C has another secret");
            assertFalse(c.isLinkUp(Port.PLUS_X) || c.isLinkUp(Port.MINUS_X));
            // The good link carries a stream.
            StreamId id = new StreamId(1, 0, 0, 0);
            Collector got = new Collector();
            b.openInbound(id, A, got);
            OutboundStream out = a.openOutbound(id, B);
            Nodes.writeAll(out, 0, 200, 512);
            out.end(Unpooled.copiedBuffer("done", StandardCharsets.UTF_8));
            assertTrue(got.ended.await(20, TimeUnit.SECONDS));
            assertEquals(IntStream.range(0, 200).boxed().collect(Collectors.toList()), got.values);
            assertEquals("done", got.endPayload);
            out.completion().get(10, TimeUnit.SECONDS);
        }
    }

    /** A dials B (lower index): it redials at once when the link drops, is refused, and declares B then. */
    @Test
    void aCrashedNeighbourIsRefusedAndDeclaredFailedLongBeforeTheFailureTimeout() throws Exception {
        crashAndAwaitDeclaration(B, A, Port.PLUS_X);
    }

    /**
     * B never dials A (A has the lower index): once the connection drops, B dials A's address once, bare, is refused,
     * and declares A then.
     */
    @Test
    void aCrashedNeighbourThatDialledUsIsDeclaredFailedLongBeforeTheFailureTimeout() throws Exception {
        crashAndAwaitDeclaration(A, B, Port.MINUS_X);
    }

    /**
     * Crashes {@code victim} (as kill -9: it stops listening, then its connections close) once its link to
     * {@code watcher} is up on {@code watcher}'s {@code port}, and expects {@code watcher} to declare it failed within
     * 10 s, with a failure timeout of a minute.
     */
    private static void crashAndAwaitDeclaration(Coord victim, Coord watcher, Port port) throws Exception {
        Topology topo = Nodes.loopback(new TorusShape(3, 1, 1));
        TransportConfig config = Nodes.config("s", TransportConfig.FAILURE_TIMEOUT_MS, "60000");
        BlockingQueue<String> failed = new LinkedBlockingQueue<>();
        try (TorusNode v = TorusNode.start(config, topo, victim);
                TorusNode w = TorusNode.start(config, topo, watcher)) {
            w.addListener(new TransportListener() {
                @Override
                public void serverFailed(Coord server, long incarnation) {
                    failed.add(server.toString());
                }
            });
            Nodes.await(Nodes.linkUp(w, port), 10_000, "link " + watcher + " - " + victim + " up");
            v.crash();
            assertEquals(victim.toString(), Nodes.next(failed, 10_000, victim + " declared failed"));
        }
    }

    @Test
    void anOrderlyShutdownIsAnnouncedAndACutIsNot() throws Exception {
        TorusShape shape = new TorusShape(3, 1, 1);
        Topology topo = Nodes.loopback(shape);
        BlockingQueue<String> downs = new LinkedBlockingQueue<>();
        try (TorusNode a = TorusNode.start(Nodes.config("s"), topo, A);
                TorusNode c = TorusNode.start(Nodes.config("s"), topo, C)) {
            TorusNode b = TorusNode.start(Nodes.config("s"), topo, B);
            a.addListener(new TransportListener() {
                @Override
                public void linkDown(Port port, Coord peer, String reason) {
                    downs.add(peer + " " + reason);
                }
            });
            Nodes.await(CompletableFuture.allOf(Nodes.linkUp(a, Port.PLUS_X), Nodes.linkUp(a, Port.MINUS_X)), 10_000,
                    "A's links up");
            a.cutLink(Port.MINUS_X);
            assertEquals(C + " " + Link.REASON_CONNECTION_CLOSED, Nodes.next(downs, 10_000, "the cut reported"));
            b.close();
            assertEquals(B + " " + Link.REASON_PEER_SHUT_DOWN, Nodes.next(downs, 10_000, "B's shutdown reported"));
            assertEquals(List.of(), List.copyOf(downs), "no other link went down");
        }
    }

    private static TransportListener refusalCounter(CountDownLatch latch) {
        return new TransportListener() {
            @Override
            public void linkRefused(java.net.SocketAddress remote, String reason) {
                latch.countDown();
            }
        };
    }

    @Test
    void cutLinkReconnectsAndTheStreamResumesWithoutLossOrDuplicate() throws Exception {
        TorusShape shape = new TorusShape(2, 1, 1);
        Topology topo = Nodes.loopback(shape);
        List<String> events = java.util.Collections.synchronizedList(new ArrayList<>());
        BlockingQueue<Port> ups = new LinkedBlockingQueue<>();
        // Shaped to 4 MB/s per direction so the cuts land mid-stream (this also exercises the token buckets).
        TransportConfig cfg = Nodes.config("s").with(TransportConfig.SHAPING_BYTES_PER_SECOND, 4_000_000)
                .with(TransportConfig.SHAPING_BURST_BYTES, 64 * 1024);
        try (TorusNode a = TorusNode.start(cfg, topo, A);
                TorusNode b = TorusNode.start(cfg, topo, B)) {
            a.addListener(new TransportListener() {
                @Override
                public void linkUp(Port port, Coord peer) {
                    ups.add(port);
                }

                @Override
                public void linkDown(Port port, Coord peer, String reason) {
                    events.add("down " + peer);
                }

                @Override
                public void serverSuspected(Coord server) {
                    events.add("suspected " + server);
                }
            });
            Nodes.await(CompletableFuture.allOf(Nodes.linkUp(a, Port.PLUS_X), Nodes.linkUp(b, Port.PLUS_X)), 10_000,
                    "link up");
            StreamId id = new StreamId(7, 3, 1, 0);
            Collector got = new Collector();
            b.openInbound(id, A, got);
            OutboundStream out = a.openOutbound(id, B);
            int n = 6000;
            Thread writer = new Thread(() -> {
                try {
                    Nodes.writeAll(out, 0, n, 1000);
                    out.end(Unpooled.copiedBuffer("attempts=m1,m2", StandardCharsets.UTF_8));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            writer.start();
            for (int cut = 1; cut <= 3; cut++) {
                int seen = got.values.size();
                Nodes.await(got.whenReceived(seen + 1001), 20_000, "1000 more frames before cut " + cut + " (had "
                        + seen + ", now " + got.values.size() + ")");
                assertEquals(1, got.ended.getCount(), "the cut must land mid-stream");
                ups.clear(); // the first link-up, or the previous reconnect's
                (cut % 2 == 0 ? b : a).cutLink(Port.PLUS_X);
                assertEquals(Port.PLUS_X, Nodes.next(ups, 20_000, "A's link up again after cut " + cut));
            }
            assertTrue(got.ended.await(30, TimeUnit.SECONDS), "END arrives");
            writer.join(10_000);
            assertFalse(writer.isAlive(), "the writer returned after END");
            assertEquals(IntStream.range(0, n).boxed().collect(Collectors.toList()), got.values,
                    "every frame exactly once, in order");
            assertEquals(LongStream(n), got.seqs);
            assertEquals("attempts=m1,m2", got.endPayload);
            assertTrue(events.contains("down 1,0,0") && events.contains("suspected 1,0,0"), events.toString());
            out.completion().get(10, TimeUnit.SECONDS);
            assertEquals(0, out.heldBuffers());
        }
    }

    private static List<Long> LongStream(int n) {
        return java.util.stream.LongStream.rangeClosed(1, n).boxed().collect(Collectors.toList());
    }
}
