package org.camdoop.torus.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.camdoop.torus.routing.RoutingTable;
import org.camdoop.torus.routing.UnreachableException;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.Port;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.link.Link;
import org.camdoop.torus.transport.link.LinkEvents;
import org.camdoop.torus.transport.link.TransitAllowance;
import org.camdoop.torus.transport.stream.CreditSink;
import org.camdoop.torus.transport.stream.InboundStream;
import org.camdoop.torus.transport.stream.OutboundStream;
import org.camdoop.torus.transport.wire.FrameWriter;
import org.camdoop.torus.transport.wire.MessageType;
import org.camdoop.torus.transport.wire.RoutedFrames;
import org.camdoop.torus.transport.wire.StreamId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's switchboard: delivers routed frames addressed here to their streams, forwards the others one hop along
 * the routing table, sends each stream's frames on the link of its next hop (or straight across on the local fast
 * path), and turns link transitions into resumes and events. Every field is owned by the node's event loop, except
 * {@code listeners} (copy-on-write, any thread).
 */
final class NodeRouter implements LinkEvents, CreditSink, Link.Listener {

    private static final Logger LOG = LoggerFactory.getLogger(NodeRouter.class);

    private final TorusShape shape;
    private final int self;
    private final EventLoop loop;
    final List<TransportListener> listeners = new CopyOnWriteArrayList<>();
    private final Link[] links = new Link[Port.values().length];
    private final StreamTable streams = new StreamTable();
    private final FailureDetector failures;
    private final RoutedIndexCheck indices;
    private final NodeRoutes routes;
    private long droppedFrames;
    private final ServiceMessages services;
    private final RetransmissionTimer retransmission;
    private final TransitForwarder transit;

    /** @param incarnation this node's, sent with every answer to a liveness probe */
    NodeRouter(TorusShape shape, int self, long incarnation, EventLoop loop, long failureTimeoutNanos,
            long retransmitTimeoutNanos, FailureView view, TransitAllowance transit) {
        this.shape = shape;
        this.self = self;
        this.loop = loop;
        this.routes = new NodeRoutes(shape, self, view);
        this.indices = new RoutedIndexCheck(shape);
        this.failures = new FailureDetector(shape, self, loop, failureTimeoutNanos, listeners,
                new FailureDetector.Actions() {
                    @Override
                    public void routeAround(Link link) {
                        RoutingTable before = routes.table();
                        if (routes.routeAround(link.peer(), link.peerIncarnation())) {
                            resendRerouted(before);
                        }
                    }

                    @Override
                    public void probe(int peer) {
                        services.probe(peer);
                    }
                }, peer -> routes.table().view().isFailed(peer));
        this.services = new ServiceMessages(shape, self, incarnation, this::nextLink, failures::answered);
        this.transit = new TransitForwarder(shape, self, this::nextLink, services, transit);
        this.retransmission = new RetransmissionTimer(loop, self, retransmitTimeoutNanos,
                streams::outbounds, streams::inbounds, s -> resendFromAck(s, true));
        retransmission.start();
    }

    void addLink(Link link) {
        links[link.port().ordinal()] = link;
    }

    Link link(Port p) {
        return links[p.ordinal()];
    }

    Link linkTo(int peer) {
        Port p = shape.portTo(self, peer);
        return p == null ? null : links[p.ordinal()];
    }

    long droppedFrames() {
        return droppedFrames + transit.dropped() + services.dropped();
    }

    java.util.List<String> describeStreams() {
        return streams.describe(shape);
    }

    // ---- service messages (event loop) ----

    void setServiceHandler(ServiceHandler handler) {
        services.setHandler(handler);
    }

    /** Sends a service message (owns {@code payload}); best effort: dropped, and counted, when there is no route. */
    void sendService(int dst, StreamId id, long seq, ByteBuf payload) {
        services.send(dst, id, seq, payload);
    }

    // ---- streams (event loop) ----

    void register(OutboundStream s) {
        if (!streams.add(s)) {
            return;
        }
        s.completion().whenComplete((v, e) -> loop.execute(() -> streams.remove(s)));
        ready(s);
    }

    void register(InboundStream s) {
        if (!streams.add(s)) {
            LOG.warn("an inbound stream {} is already open; the new registration is refused", s.id());
            s.close();
            return;
        }
        s.open();
    }

    /** The stream may have something to send: put it on its link, or deliver it locally. */
    void ready(OutboundStream s) {
        if (s.isClosed()) {
            return;
        }
        if (s.destination() == self) {
            InboundStream in = streams.inbound(s.id());
            if (in != null) {
                while (s.deliverNext((seq, end, ackRequested, payload) -> {
                    if (end) {
                        in.onEnd(seq, payload);
                    } else {
                        in.onData(seq, ackRequested, payload);
                    }
                })) {
                    // keep delivering while credit lasts
                }
            }
            return;
        }
        Link l = nextLink(s.destination());
        if (l != null && l.isUp()) {
            l.schedule(s);
        }
    }

    void setUrgent(OutboundStream s, boolean urgent) {
        Link l = s.destination() == self ? null : nextLink(s.destination());
        if (l != null) {
            l.scheduler().remove(s);
        }
        s.setUrgent(urgent);
        ready(s);
    }

    void setFailureView(FailureView view) {
        RoutingTable before = routes.table();
        routes.install(view);
        resendRerouted(before);
        failures.viewChanged();
    }

    /** Whether this node routes around its link to neighbour {@code peer}. */
    boolean avoids(int peer) {
        return routes.avoids(peer);
    }

    /**
     * Routes changed: frames in flight on a path that changed may have been lost on it, so each stream whose path
     * changed resumes from its last acknowledgement (duplicates are dropped by sequence number), and every receiver
     * repeats its credit (one small frame each). A stream whose path did not change lost nothing to the change:
     * rewinding every stream on every change made each crash (six links routed around, then the failure) rewind
     * every stream of every daemon seven times.
     */
    private void resendRerouted(RoutingTable before) {
        for (OutboundStream s : streams.outbounds()) {
            if (s.destination() != self && NodeRoutes.pathChanged(before, routes.table(), self, s.destination())) {
                resendFromAck(s, false);
            }
        }
        streams.inbounds().forEach(InboundStream::reannounce);
    }

    /**
     * Takes {@code s} off every link queue and resends from its last acknowledgement, if it has a route: everything at
     * once, or ({@code probe}) the first frame until the receiver answers ({@link OutboundStream#probe}).
     */
    private void resendFromAck(OutboundStream s, boolean probe) {
        Link l = s.destination() == self ? null : nextLink(s.destination());
        for (Link any : links) {
            if (any != null) {
                any.scheduler().remove(s);
            }
        }
        if (l == null && s.destination() != self) {
            return;
        }
        if (probe) {
            s.probe();
        } else {
            s.resume();
        }
    }

    private Link nextLink(int dst) {
        try {
            Port p = routes.table().nextHop(self, dst);
            return p == null ? null : links[p.ordinal()];
        } catch (UnreachableException e) {
            LOG.debug("no route from {} to {}: {}", shape.coord(self), shape.coord(dst), e.getMessage());
            return null;
        }
    }

    // ---- CreditSink ----

    @Override
    public void credit(int sender, StreamId id, long acked, long limit) {
        announce(sender, id, acked, limit, false);
    }

    @Override
    public void gap(int sender, StreamId id, long acked, long limit) {
        announce(sender, id, acked, limit, true);
    }

    /** CREDIT to {@code sender}; to a sender on this node a plain one (nothing is lost between two of its streams). */
    private void announce(int sender, StreamId id, long acked, long limit, boolean gap) {
        if (sender == self) {
            applyCredit(id, acked, limit, false);
            return;
        }
        Link l = nextLink(sender);
        if (l != null) {
            l.sendControl(FrameWriter.credit(ByteBufAllocator.DEFAULT, self, sender, id, acked, limit, gap));
        }
    }

    @Override
    public void urgent(int sender, StreamId id, boolean urgent) {
        if (sender == self) {
            OutboundStream s = streams.outbound(id);
            if (s != null) {
                setUrgent(s, urgent);
            }
            return;
        }
        Link l = nextLink(sender);
        if (l != null) {
            l.sendControl(FrameWriter.urgent(ByteBufAllocator.DEFAULT, self, sender, id, urgent));
        }
    }

    @Override
    public void closed(InboundStream stream) {
        streams.remove(stream);
    }

    // ---- LinkEvents ----

    @Override
    public void established(Channel ch, int peer, long peerIncarnation) {
        Link l = linkTo(peer);
        if (l == null) { // the handshake checked the peer is a neighbour; kept so a broken invariant is seen, not silent
            LOG.error("connection from {} established at {} but no link leads there; closing it", shape.coord(peer),
                    shape.coord(self));
            ch.close();
            return;
        }
        l.established(ch, peerIncarnation);
    }

    /**
     * Nothing a peer puts in a frame may throw here: the exception would reach the link's pipeline and close a link
     * every job shares. Indices are checked before use; anything else that fails is logged and costs one frame.
     */
    @Override
    public void routedFrame(int from, ByteBuf f) {
        if (!indices.admit(from, f)) {
            droppedFrames++;
            f.release();
            return;
        }
        int src = RoutedFrames.src(f);
        int dst = RoutedFrames.dst(f);
        if (dst != self) {
            transit.forward(f, dst);
            return;
        }
        try {
            deliver(f);
        } catch (RuntimeException e) {
            droppedFrames++;
            LOG.error("{} frame from server {} (via neighbour {}) failed here; dropped", RoutedFrames.type(f),
                    shape.coord(src), shape.coord(from), e);
        } finally {
            f.release();
        }
    }

    /** A frame addressed to this server; does not release {@code f}. */
    private void deliver(ByteBuf f) {
        MessageType type = RoutedFrames.type(f);
        StreamId id = RoutedFrames.stream(f);
        switch (type) {
            case DATA, END -> {
                InboundStream in = streams.inbound(id);
                if (in == null || in.sender() != RoutedFrames.src(f)) {
                    droppedFrames++;
                    LOG.debug("{} frame for unknown {} from server {} dropped", type, id, RoutedFrames.src(f));
                    return;
                }
                ByteBuf payload = RoutedFrames.retainedPayload(f);
                if (type == MessageType.DATA) {
                    in.onData(RoutedFrames.seq(f), RoutedFrames.ackRequested(f), payload);
                } else {
                    in.onEnd(RoutedFrames.seq(f), payload);
                }
            }
            case CREDIT, URGENT -> {
                OutboundStream s = streams.outbound(id);
                if (s != null && s.destination() != RoutedFrames.src(f)) {
                    // Only the stream's receiver may grant, acknowledge or ask for a resend (a gap costs a window).
                    droppedFrames++;
                    LOG.debug("{} frame for {} from server {}, not its receiver, dropped", type, id,
                            RoutedFrames.src(f));
                } else if (type == MessageType.CREDIT) {
                    applyCredit(id, RoutedFrames.acked(f), RoutedFrames.limit(f), RoutedFrames.gap(f));
                } else if (s != null) {
                    setUrgent(s, RoutedFrames.urgent(f));
                }
            }
            case SERVICE -> services.deliver(RoutedFrames.src(f), id, RoutedFrames.retainedPayload(f));
            default -> throw new IllegalStateException("not a routed type: " + type);
        }
    }

    /** A CREDIT for stream {@code id}; with {@code gap}, frames after {@code acked} were lost and are sent again. */
    private void applyCredit(StreamId id, long acked, long limit, boolean gap) {
        OutboundStream s = streams.outbound(id);
        if (s != null) {
            s.onCredit(acked, limit);
            if (gap && s.resendsAfterGap(acked)) {
                resendFromAck(s, false);
            }
        } else {
            streams.creditEarly(id, acked, limit);
        }
    }

    @Override
    public void writable(Channel ch, int peer) {
        Link l = linkTo(peer);
        if (l != null) {
            l.requestFlush();
        }
    }

    @Override
    public void refused(Channel ch, String reason) {
        listeners.forEach(l -> l.linkRefused(ch.remoteAddress(), reason));
    }

    @Override
    public void closed(Channel ch, int peer, String reason) {
        Link l = linkTo(peer);
        if (l != null) {
            l.closed(ch, reason);
        }
    }

    // ---- Link.Listener ----

    @Override
    public void linkUp(Link link) {
        failures.up(link);
        failures.restarted(link); // before the layer above hears of a new run: the earlier one ended first
        RoutingTable before = routes.table();
        if (routes.restore(link.peer(), link.peerIncarnation())) {
            LOG.info("link {} from {} to {} is up to a restarted daemon (incarnation {}): no longer routed around",
                    link.port().label(), shape.coord(self), shape.coord(link.peer()), link.peerIncarnation());
            resendRerouted(before);
        }
        for (OutboundStream s : streams.outbounds()) {
            if (s.destination() != self && nextLink(s.destination()) == link) {
                s.resume();
            }
        }
        // Over a copy: reannouncing drains a stream's released buffers, which may close it (it then leaves the table).
        streams.inbounds().forEach(InboundStream::reannounce);
        LOG.info("link {} from {} to {} is up", link.port().label(), shape.coord(self), shape.coord(link.peer()));
        listeners.forEach(l -> l.linkUp(link.port(), shape.coord(link.peer()), link.peerIncarnation()));
    }

    @Override
    public void linkDown(Link link, String reason) {
        failures.down(link, reason);
    }

    /** Every server is about to shut down: see {@link FailureDetector#expectShutdown}. */
    void expectShutdown() {
        failures.expectShutdown();
    }

    /** Stops at once, telling no peer: links drop without a goodbye and streams are abandoned (a crash). */
    void crash() {
        failures.cancelAll();
        retransmission.stop();
        for (Link l : links) {
            if (l != null) {
                l.crash();
            }
        }
        streams.closeAll("the node crashed");
    }

    void closeAll() {
        retransmission.stop();
        streams.closeAll("the node is shutting down");
        failures.cancelAll();
        for (Link l : links) {
            if (l != null) {
                l.stop();
            }
        }
    }
}
