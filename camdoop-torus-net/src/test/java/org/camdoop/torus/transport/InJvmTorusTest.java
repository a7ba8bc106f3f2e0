package org.camdoop.torus.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoopGroup;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.camdoop.torus.routing.RoutingTable;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.Port;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.stream.OutboundStream;
import org.camdoop.torus.transport.wire.StreamId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Many daemons in one JVM over in-JVM channels (the same pipeline as TCP). */
@Timeout(60)
class InJvmTorusTest {

    @Test
    void slowConsumerIsBoundedByItsCreditWhileOtherStreamsFlow() throws Exception {
        TorusShape shape = new TorusShape(2, 1, 1);
        Topology topo = Topology.inJvm(shape, "backpressure");
        TransportConfig cfg = Nodes.config("s");
        EventLoopGroup group = TorusNode.groupFor(topo, cfg, 2);
        Coord a = new Coord(0, 0, 0);
        Coord b = new Coord(1, 0, 0);
        try (TorusNode na = TorusNode.start(cfg, topo, a, group, FailureView.none(shape));
                TorusNode nb = TorusNode.start(cfg, topo, b, group, FailureView.none(shape))) {
            Nodes.await(CompletableFuture.allOf(Nodes.linkUp(na, Port.PLUS_X), Nodes.linkUp(nb, Port.PLUS_X)), 10_000,
                    "link up");
            StreamId slowId = new StreamId(1, 0, 0, 0);
            StreamId fastId = new StreamId(2, 0, 0, 0);
            Collector slow = new Collector();
            slow.hold = true;
            Collector fast = new Collector();
            nb.openInbound(slowId, a, slow);
            nb.openInbound(fastId, a, fast);
            OutboundStream slowOut = na.openOutbound(slowId, b);
            OutboundStream fastOut = na.openOutbound(fastId, b);

            // The slow stream accepts writes only up to what its reservation allows, then refuses.
            int accepted = 0;
            while (accepted < 10_000 && slowOut.tryWrite(Nodes.intFrame(accepted, 1000))) {
                accepted++;
            }
            assertTrue(accepted < 10_000, "writes must be refused once the stream's buffers are used");
            assertFalse(slowOut.whenWritable().isDone());
            int budgetBuffers = na.budget().totalBuffers();
            assertTrue(accepted <= budgetBuffers, accepted + " buffers accepted > budget " + budgetBuffers);

            // Meanwhile another stream on the same link flows to the end.
            int n = 2000;
            Nodes.writeAll(fastOut, 0, n, 1000);
            fastOut.end(Unpooled.copiedBuffer("ok", StandardCharsets.UTF_8));
            assertTrue(fast.ended.await(20, TimeUnit.SECONDS));
            assertEquals(IntStream.range(0, n).boxed().collect(Collectors.toList()), fast.values);

            // The receiver never holds more than it granted, and neither side exceeded its budget.
            assertTrue(slow.held.size() <= nb.budget().totalBuffers());
            assertTrue(na.budget().peakReservedBuffers() <= na.budget().totalBuffers());
            assertTrue(nb.budget().peakReservedBuffers() <= nb.budget().totalBuffers());
            assertTrue(slowOut.heldBytes() <= na.budget().totalBytes());

            // Consumer catches up: everything arrives once, in order.
            final int total = accepted;
            slow.releaseHeld();
            Nodes.await(slow.whenReceived(total), 10_000, "the slow stream's " + total + " frames");
            assertEquals(IntStream.range(0, total).boxed().collect(Collectors.toList()), slow.values);
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    /**
     * Every server of a 3x3x3 torus starts at once, over and over: each of the 81 links comes up exactly once. A server
     * whose port opened before its links were wired closed a neighbour's finished handshake unannounced, and that link
     * went up, down and up again (about one torus start in 25): the first shuffle lost the frames it had sent on it.
     */
    @Test
    void everyLinkComesUpOnceWhenAllServersStartTogether() throws Exception {
        TorusShape shape = new TorusShape(3, 3, 3);
        TransportConfig cfg = Nodes.config("s");
        for (int round = 0; round < 20; round++) {
            Topology topo = Topology.inJvm(shape, "start-together-" + round);
            EventLoopGroup group = TorusNode.groupFor(topo, cfg, 2);
            List<TorusNode> nodes = new ArrayList<>();
            try {
                for (int i = 0; i < shape.size(); i++) {
                    nodes.add(TorusNode.start(cfg, topo, shape.coord(i), group, FailureView.none(shape)));
                }
                for (TorusNode n : nodes) {
                    assertTrue(n.awaitLinksUp(FailureView.none(shape), java.time.Duration.ofSeconds(20)),
                            "links of " + n.coord());
                }
                long ups = nodes.stream().mapToLong(TorusNode::linkUpsSoFar).sum();
                assertEquals((long) shape.links().size() * shape.size(), ups, "one link-up per link end, round " + round);
            } finally {
                nodes.forEach(TorusNode::close);
                group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            }
        }
    }

    @Test
    void framesAreForwardedHopByHopAroundAFailedServer() throws Exception {
        TorusShape shape = new TorusShape(3, 3, 3);
        Topology topo = Topology.inJvm(shape, "multihop");
        TransportConfig cfg = Nodes.config("s");
        int src = shape.index(new Coord(0, 0, 0));
        int dst = shape.index(new Coord(1, 1, 1));
        int[] healthyPath = new RoutingTable(FailureView.none(shape)).path(src, dst);
        Coord failed = shape.coord(healthyPath[1]);
        FailureView view = FailureView.none(shape).withFailed(failed);
        int[] detour = new RoutingTable(view).path(src, dst);
        assertFalse(Arrays.stream(detour).anyMatch(i -> i == healthyPath[1]));
        assertTrue(detour.length >= 4, "the detour is multi-hop: " + Arrays.toString(detour));

        EventLoopGroup group = TorusNode.groupFor(topo, cfg, 2);
        List<TorusNode> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < shape.size(); i++) {
                if (i != healthyPath[1]) {
                    nodes.add(TorusNode.start(cfg, topo, shape.coord(i), group, view));
                }
            }
            TorusNode from = nodes.stream().filter(n -> n.index() == src).findFirst().orElseThrow();
            TorusNode to = nodes.stream().filter(n -> n.index() == dst).findFirst().orElseThrow();
            // Every link along the detour must be up before we count on it.
            for (int h = 0; h + 1 < detour.length; h++) {
                int x = detour[h];
                Port p = shape.portTo(x, detour[h + 1]);
                TorusNode nx = nodes.stream().filter(n -> n.index() == x).findFirst().orElseThrow();
                Nodes.await(Nodes.linkUp(nx, p), 10_000, "link " + shape.coord(x) + " " + p.label());
            }
            StreamId id = new StreamId(9, 4, 2, src);
            Collector got = new Collector();
            to.openInbound(id, from.coord(), got);
            OutboundStream out = from.openOutbound(id, to.coord());
            int n = 500;
            Nodes.writeAll(out, 0, n, 700);
            out.end(Unpooled.copiedBuffer("attempts", StandardCharsets.UTF_8));
            assertTrue(got.ended.await(20, TimeUnit.SECONDS));
            assertEquals(IntStream.range(0, n).boxed().collect(Collectors.toList()), got.values);
            assertEquals("attempts", got.endPayload);
            out.completion().get(10, TimeUnit.SECONDS);
            for (TorusNode node : nodes) {
                assertEquals(0, node.droppedFrames(), "no frame dropped at " + node.coord());
            }
        } finally {
            nodes.forEach(TorusNode::close);
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    @Test
    void localFastPathDeliversBetweenVerticesOfOneDaemon() throws Exception {
        TorusShape shape = new TorusShape(1, 1, 1);
        Topology topo = Topology.inJvm(shape, "local");
        TransportConfig cfg = Nodes.config("s");
        EventLoopGroup group = TorusNode.groupFor(topo, cfg, 1);
        Coord only = new Coord(0, 0, 0);
        try (TorusNode node = TorusNode.start(cfg, topo, only, group, FailureView.none(shape))) {
            StreamId id = new StreamId(3, 1, 0, 1);
            OutboundStream out = node.openOutbound(id, only);
            Collector got = new Collector();
            node.openInbound(id, only, got);
            Nodes.writeAll(out, 0, 1000, 900);
            out.end(Unpooled.copiedBuffer("local", StandardCharsets.UTF_8));
            assertTrue(got.ended.await(10, TimeUnit.SECONDS));
            assertEquals(IntStream.range(0, 1000).boxed().collect(Collectors.toList()), got.values);
            out.completion().get(10, TimeUnit.SECONDS);
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
