package org.camdoop.torus.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import java.net.SocketAddress;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.Port;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.link.Link;
import org.camdoop.torus.transport.link.LinkTls;
import org.camdoop.torus.transport.link.ReconnectBackoff;
import org.camdoop.torus.transport.link.TokenBucket;
import org.camdoop.torus.transport.link.TransitAllowance;
import org.camdoop.torus.transport.link.Transports;
import org.camdoop.torus.transport.stream.BufferBudget;
import org.camdoop.torus.transport.stream.InboundHandler;
import org.camdoop.torus.transport.stream.InboundStream;
import org.camdoop.torus.transport.stream.LinkScheduler;
import org.camdoop.torus.transport.stream.OutboundStream;
import org.camdoop.torus.transport.wire.StreamId;

/**
 * One daemon's transport: listens on its topology address, keeps a link to each live torus neighbour, and carries
 * streams between vertices on any servers (multi-hop when needed). All network and stream state lives on one event
 * loop of the node; the methods below may be called from any thread.
 */
public final class TorusNode implements AutoCloseable {

    private final TransportConfig config;
    private final Topology topology;
    private final TorusShape shape;
    private final Coord coord;
    private final int self;
    private final EventLoopGroup ownGroup;
    private final EventLoop loop;
    private final BufferBudget budget;
    private final NodeRouter router;
    private final Map<Long, Integer> jobWeights = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicLong serviceSeq = new java.util.concurrent.atomic.AtomicLong();
    private final Channel server;
    private final ReadinessEvents readiness = new ReadinessEvents();
    /** Which run of this daemon process this node is: announced in every link handshake. */
    private final long incarnation = Incarnations.next();

    private TorusNode(TransportConfig config, Topology topology, Coord coord, EventLoopGroup group,
            EventLoopGroup ownGroup, LongSupplier nanoClock, FailureView view, LinkTls tls) throws InterruptedException {
        if (config.sslEnabled() && tls == null) {
            throw new IllegalArgumentException(TransportConfig.SSL_ENABLED + " is true but no TLS contexts were given to"
                    + " the transport of " + coord);
        }
        this.config = config;
        this.topology = topology;
        this.shape = topology.shape();
        this.coord = coord;
        this.self = shape.index(coord);
        this.ownGroup = ownGroup;
        this.loop = group.next();
        this.budget = new BufferBudget(config.bufferBudgetBytes(), config.segmentBytes(), config.minBuffersPerStream(),
                config.maxBuffersPerStream());
        TransitAllowance transit = new TransitAllowance(config.transitMaxBytes());
        this.router = new NodeRouter(shape, self, incarnation, loop, config.failureTimeoutNanos(),
                config.retransmitTimeoutNanos(), view, transit);
        router.listeners.add(new TransportListener() {
            @Override
            public void linkUp(Port port, Coord peer) {
                readiness.linkUp();
            }
        });
        NodeChannels channels = new NodeChannels(config, topology, coord, incarnation, loop, nanoClock, router, tls);
        SocketAddress addr = topology.address(self);
        if (addr == null) {
            throw new IllegalArgumentException("the topology has no address for " + coord);
        }
        for (Port p : shape.links()) {
            int peer = shape.neighbour(self, p);
            TokenBucket bucket = config.shapingBytesPerSecond() > 0
                    ? new TokenBucket(nanoClock, config.shapingBytesPerSecond(), config.shapingBurstBytes()) : null;
            Bootstrap connector = self < peer ? channels.dialer(peer) : channels.prober();
            router.addLink(new Link(p, self, peer, connector, topology.address(peer), loop,
                    new LinkScheduler(config.segmentBytes(), this::jobWeight), bucket,
                    new ReconnectBackoff(config.reconnectInitialNanos(), config.reconnectMaxNanos()), router, transit,
                    config.serviceQueueMaxBytes()));
        }
        // Bound only now that every link is in place: a neighbour that dials the moment the port opens and finishes its
        // handshake before the links existed had its new connection closed unannounced (a link that came up and went
        // straight down, taking frames of the first shuffle with it).
        this.server = channels.listen(addr);
        loop.execute(() -> {
            for (Port p : shape.links()) {
                router.link(p).start();
            }
        });
    }

    /**
     * Starts the transport of server {@code coord} on its own single-thread event loop (epoll, NIO or in-JVM as the
     * topology and configuration say).
     */
    public static TorusNode start(TransportConfig config, Topology topology, Coord coord) throws InterruptedException {
        return start(config, topology, coord, (LinkTls) null);
    }

    /** As {@link #start(TransportConfig, Topology, Coord)}, over TLS when {@code tls} is not {@code null}. */
    public static TorusNode start(TransportConfig config, Topology topology, Coord coord, LinkTls tls)
            throws InterruptedException {
        Transports kind = NodeChannels.transportOf(topology, config);
        EventLoopGroup g = new MultiThreadIoEventLoopGroup(1, kind.ioHandlerFactory());
        try {
            return new TorusNode(config, topology, coord, g, g, System::nanoTime,
                    FailureView.none(topology.shape()), tls);
        } catch (RuntimeException | InterruptedException e) {
            g.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            throw e;
        }
    }

    /**
     * Starts the transport of server {@code coord} on one loop of a shared group (many in-JVM nodes in one test), with
     * an initial failure view. The group must match the topology's transport ({@link #groupFor}).
     */
    public static TorusNode start(TransportConfig config, Topology topology, Coord coord, EventLoopGroup shared,
            FailureView view) throws InterruptedException {
        return start(config, topology, coord, shared, view, null);
    }

    /** As above, over TLS when {@code tls} is not {@code null}. */
    public static TorusNode start(TransportConfig config, Topology topology, Coord coord, EventLoopGroup shared,
            FailureView view, LinkTls tls) throws InterruptedException {
        return new TorusNode(config, topology, coord, shared, null, System::nanoTime, view, tls);
    }

    /** An event loop group suited to {@code topology} (in-JVM or sockets), for {@link #start(TransportConfig,
     * Topology, Coord, EventLoopGroup, FailureView)}. */
    public static EventLoopGroup groupFor(Topology topology, TransportConfig config, int threads) {
        Transports kind = NodeChannels.transportOf(topology, config);
        return new MultiThreadIoEventLoopGroup(threads, kind.ioHandlerFactory());
    }

    public Coord coord() {
        return coord;
    }

    /** Which run of its daemon process this node is, larger for a later run (docs/recovery.md, "Rejoin"). */
    public long incarnation() {
        return incarnation;
    }

    public int index() {
        return self;
    }

    public TorusShape shape() {
        return shape;
    }

    public TransportConfig config() {
        return config;
    }

    /** The address the node listens on (the real port when the topology said port 0). */
    public SocketAddress boundAddress() {
        return server.localAddress();
    }

    /** The node's buffer budget (shared by all its streams). */
    public BufferBudget budget() {
        return budget;
    }

    /**
     * Opens the sending end of a stream to server {@code destination} (may be this server: the local fast path).
     * Frames flow once the receiver has opened its end and granted credit.
     *
     * @throws org.camdoop.torus.transport.stream.BudgetExhaustedException if the buffer budget cannot hold one more
     *         stream
     */
    public OutboundStream openOutbound(StreamId id, Coord destination) {
        int dst = shape.index(destination);
        OutboundStream s = new OutboundStream(id, dst, config.segmentBytes(), budget, loop, router::ready);
        loop.execute(() -> router.register(s));
        return s;
    }

    /**
     * Opens the receiving end of a stream sent by server {@code sender}; {@code handler} gets its frames in order on
     * the node's event loop.
     */
    public InboundStream openInbound(StreamId id, Coord sender, InboundHandler handler) {
        InboundStream s = new InboundStream(id, shape.index(sender), handler, budget, loop, router,
                config.announceBatch());
        loop.execute(() -> router.register(s));
        return s;
    }

    /**
     * Sends a message to the service on server {@code destination} (this server included): routed hop by hop like
     * data, but outside any stream's credit. Best effort: a message with no route, or that meets a link going down, is
     * dropped (and counted in {@link #droppedFrames()}); the service must tolerate that. Takes ownership of
     * {@code payload}. Any thread.
     *
     * @throws IllegalArgumentException if the payload does not fit one frame
     */
    public void sendService(Coord destination, StreamId id, ByteBuf payload) {
        int limit = config.maxFrameBytes() - org.camdoop.torus.transport.wire.FrameLayout.PAYLOAD;
        if (payload.readableBytes() > limit) {
            int n = payload.readableBytes();
            payload.release();
            throw new IllegalArgumentException("service message of " + n + " bytes exceeds the frame limit " + limit);
        }
        int dst = shape.index(destination);
        long seq = serviceSeq.incrementAndGet();
        loop.execute(() -> router.sendService(dst, id, seq, payload));
    }

    /** Sets the receiver of service messages addressed to this server; messages that arrive before it are dropped. */
    public void setServiceHandler(ServiceHandler handler) {
        loop.execute(() -> router.setServiceHandler(handler));
    }

    /**
     * Stops receiving on {@code stream} and gives its buffers back, e.g. when the shuffle it belongs to was aborted and
     * its sender may never end it. Frames the handler still holds stay the handler's. Any thread.
     */
    public void closeInbound(InboundStream stream) {
        loop.execute(stream::close);
    }

    /** Sets a job's share of every link it uses (default {@link TransportConfig#DEFAULT_JOB_WEIGHT}); at least 1. */
    public void setJobWeight(long job, int weight) {
        if (weight < 1) {
            throw new IllegalArgumentException("job weight must be at least 1, got " + weight);
        }
        jobWeights.put(job, weight);
    }

    /** Forgets a finished job's weight. */
    public void clearJob(long job) {
        jobWeights.remove(job);
    }

    private int jobWeight(long job) {
        return jobWeights.getOrDefault(job, config.defaultJobWeight());
    }

    public void addListener(TransportListener l) {
        router.listeners.add(l);
    }

    /**
     * Installs a new failure view: routes are recomputed and streams resume on their new paths. Wakes
     * {@link #awaitLinksUp}: a link to a server now failed is no longer waited for.
     */
    public void setFailureView(FailureView view) {
        loop.execute(() -> {
            router.setFailureView(view);
            readiness.viewChanged();
        });
    }

    /** Whether the link through {@code port} is up (answered on the event loop). */
    public boolean isLinkUp(Port port) {
        return onLoop(() -> router.link(port) != null && router.link(port).isUp());
    }

    /** Whether every link to a neighbour {@code view} says is reachable is up (answered on the event loop). */
    public boolean linksUp(FailureView view) {
        return onLoop(() -> {
            for (Port p : shape.links()) {
                int peer = shape.neighbour(self, p);
                Link l = router.link(p);
                if (peer != self && view.canCross(self, peer) && !router.avoids(peer) && (l == null || !l.isUp())) {
                    return false;
                }
            }
            return true;
        });
    }

    /** How many times a link of this server has come up since it started (a link that flapped counts twice). */
    long linkUpsSoFar() {
        return readiness.linkUps();
    }

    /**
     * Waits until {@link #linksUp(FailureView)}, woken by each link that comes up. Service messages are best effort:
     * one sent on a link still handshaking would be lost, so whoever sends START first waits here.
     *
     * @return whether the links are up; false if {@code timeout} passed first
     */
    public boolean awaitLinksUp(FailureView view, java.time.Duration timeout) throws InterruptedException {
        return awaitLinksUp(() -> view, timeout);
    }

    /**
     * As {@link #awaitLinksUp(FailureView, java.time.Duration)}, reading the view again whenever a link comes up or
     * {@link #setFailureView} installs a new one: a neighbour declared failed during the wait (its link will never come
     * up) ends the wait at once instead of at the timeout.
     */
    public boolean awaitLinksUp(java.util.function.Supplier<FailureView> view, java.time.Duration timeout)
            throws InterruptedException {
        return readiness.await(() -> linksUp(view.get()), timeout);
    }

    /** The whole cluster is shutting down (an embedded torus): links lost before {@link #close} are no incident. */
    public void expectShutdown() {
        if (!loop.isShuttingDown()) {
            loop.execute(router::expectShutdown);
        }
    }

    /** Closes the connection of one link, as a cable cut would; it reconnects as usual. */
    public void cutLink(Port port) {
        cutLink(port, java.time.Duration.ZERO);
    }

    /** Closes one link's connection and keeps this side from reconnecting for {@code hold}, as a pulled cable would. */
    public void cutLink(Port port, java.time.Duration hold) {
        loop.execute(() -> {
            Link l = router.link(port);
            if (l != null) {
                l.cut(hold.toNanos());
            }
        });
    }

    /** Every link of this node's coordinate, in {@link TorusShape#links()} order (answered on the event loop). */
    public java.util.List<LinkState> linkStates() {
        return onLoop(() -> {
            java.util.List<LinkState> out = new java.util.ArrayList<>();
            for (Port p : shape().links()) {
                Link link = router.link(p);
                out.add(new LinkState(p, shape().coord(shape().neighbour(index(), p)), link != null && link.isUp(),
                        link == null ? 0 : link.bytesSent(), router.avoids(shape().neighbour(index(), p)),
                        link == null ? 0 : link.peerIncarnation()));
            }
            return java.util.List.copyOf(out);
        });
    }

    /** The streams open on this node, one line each (for status output and diagnostics). */
    public java.util.List<String> openStreams() {
        return onLoop(router::describeStreams);
    }

    /** Routed frames dropped here: unknown stream, no route, hop budget spent. */
    public long droppedFrames() {
        return onLoop(router::droppedFrames);
    }

    private <T> T onLoop(java.util.concurrent.Callable<T> c) {
        if (loop.inEventLoop()) {
            try {
                return c.call();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        try {
            return loop.submit(c).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("node " + coord + " did not answer: " + e, e);
        }
    }

    /**
     * Stops this node as a crashed process would: it stops listening, its links drop without a goodbye and never come
     * back, and its neighbours see only connections closing. As when a process is killed, the listener is gone before
     * a neighbour can redial: a neighbour that dials this node is refused at its next redial and declares it failed
     * then; the others hear it from that one, or wait for their failure timeout. The event loop group is left alone
     * (an embedded torus shares it). Waits for it.
     */
    public void crash() {
        CompletableFuture<Void> done = new CompletableFuture<>();
        loop.execute(() -> server.close().addListener(f -> {
            try {
                router.crash();
                done.complete(null);
            } catch (Throwable t) {
                done.completeExceptionally(t);
            }
        }));
        try {
            done.get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("node " + coord + " did not crash within 10 s: " + e, e);
        }
    }

    /** Closes every stream and link and stops listening; waits for it. */
    @Override
    public void close() {
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (!loop.isShuttingDown()) {
            loop.execute(() -> {
                try {
                    router.closeAll(); // a listener that throws must not keep the port open and the caller waiting
                } finally {
                    server.close().addListener(f -> done.complete(null));
                }
            });
            try {
                done.get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                org.slf4j.LoggerFactory.getLogger(TorusNode.class).warn("node {} did not close within 10 s ({});"
                        + " closing anyway", coord, e.toString());
            }
        }
        if (ownGroup != null) {
            ownGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
