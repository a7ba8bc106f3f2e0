package org.camdoop.torus.transport.link;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoop;
import java.net.SocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.camdoop.torus.topology.Port;
import org.camdoop.torus.transport.stream.LinkScheduler;
import org.camdoop.torus.transport.stream.ScheduledSource;
import org.camdoop.torus.transport.wire.ErrorCode;
import org.camdoop.torus.transport.wire.FrameWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The link to one torus neighbour: its connection state machine, its scheduler and its send loop. The server with the
 * lower index dials (and redials with backoff); the other accepts, and once a connection drops checks that the
 * neighbour still listens. Only the owning node's event loop touches it.
 */
public final class Link {

    private static final Logger LOG = LoggerFactory.getLogger(Link.class);

    /** The down reason when this node stops the link itself. */
    public static final String REASON_STOPPED = "stopped";

    /** The down reason when the peer said it is shutting down before closing: an orderly exit, not an incident. */
    public static final String REASON_PEER_SHUT_DOWN = "peer shut down";

    /** Not a loss of the connection but a dial refused while the link was down: no daemon listens at the address. */
    public static final String REASON_REFUSED = "connection refused";

    /** The down reason for any other loss of the connection. */
    public static final String REASON_CONNECTION_CLOSED = "connection closed";

    /** Connection states; transitions happen in {@link #transition}. */
    public enum State { WAITING, CONNECTING, UP, BACKOFF, STOPPED }

    /** Told about up/down transitions. */
    public interface Listener {
        void linkUp(Link link);

        /**
         * The link went down, or ({@link #REASON_REFUSED}) a dial was refused while it was down: the neighbour's host
         * answered, and nothing listens at the daemon's address, so the run this link last connected to is gone.
         */
        void linkDown(Link link, String reason);
    }

    private final Port port;
    private final int peer;
    private final int self;
    /** Dials the peer: the link's own bootstrap where this side dials, a bare one where it accepts; null in tests. */
    private final Bootstrap connector;
    /** Whether this side dials (the lower index) rather than accepts. */
    private final boolean dials;
    private final SocketAddress peerAddress;
    private final EventLoop loop;
    private final LinkScheduler scheduler;
    private final TokenBucket outBucket;
    private final ReconnectBackoff backoff;
    private final Listener listener;
    private final TransitAllowance transitAllowance;
    private final long serviceQueueMaxBytes;
    /** One queue per job with frames waiting here; a queue leaves the map when it empties. */
    private final Map<Long, TransitQueue> transit = new HashMap<>();

    private State state = State.WAITING;
    private Channel channel;
    private boolean flushScheduled;
    private boolean shapingTimerArmed;
    private long bytesSent;
    /** The incarnation of the neighbour's daemon at the other end of the last connection that came up; 0 before. */
    private long peerIncarnation;
    /** The incarnation that last connection replaced, when it was another run of the neighbour's daemon; else 0. */
    private long replacedIncarnation;
    /** {@link System#nanoTime} before which this side neither dials nor takes a connection ({@link #cut(long)}). */
    private long heldUntilNanos = System.nanoTime();

    /**
     * @param connector            where this side dials (the lower index), a bootstrap ready to connect to the peer;
     *                             where it accepts, a bare one ({@link #checkPeerListens}); null: neither (tests)
     * @param transitAllowance     the node's cap on frames in transit, shared by its links
     * @param serviceQueueMaxBytes bytes waiting in the connection's outbound buffer beyond which service messages are
     *                             dropped (they are best effort) rather than queued
     */
    public Link(Port port, int self, int peer, Bootstrap connector, SocketAddress peerAddress, EventLoop loop,
            LinkScheduler scheduler, TokenBucket outBucket, ReconnectBackoff backoff, Listener listener,
            TransitAllowance transitAllowance, long serviceQueueMaxBytes) {
        this.transitAllowance = transitAllowance;
        this.serviceQueueMaxBytes = serviceQueueMaxBytes;
        this.port = port;
        this.self = self;
        this.peer = peer;
        this.connector = connector;
        this.dials = connector != null && self < peer;
        this.peerAddress = peerAddress;
        this.loop = loop;
        this.scheduler = scheduler;
        this.outBucket = outBucket;
        this.backoff = backoff;
        this.listener = listener;
    }

    public Port port() {
        return port;
    }

    public int peer() {
        return peer;
    }

    public State state() {
        return state;
    }

    public boolean isUp() {
        return state == State.UP;
    }

    public long bytesSent() {
        return bytesSent;
    }

    /**
     * The incarnation the neighbour proved on the last connection that came up (0 if none has): which run of its
     * daemon process this link joins, or joined before it went down.
     */
    public long peerIncarnation() {
        return peerIncarnation;
    }

    /**
     * When the last connection that came up is to another run of the neighbour's daemon than the connection before
     * it, that earlier run's incarnation: that run is dead (a process has one incarnation). Else 0.
     */
    public long replacedIncarnation() {
        return replacedIncarnation;
    }

    /** Jobs with frames waiting here in transit (event loop). */
    public int transitQueues() {
        return transit.size();
    }

    public LinkScheduler scheduler() {
        return scheduler;
    }

    /** Dials now if this side dials and waits (the node starts) or backs off (the neighbour is back in the view). */
    public void start() {
        if (dials && peerAddress != null && (state == State.WAITING || state == State.BACKOFF) && heldNanos() == 0) {
            transition(State.CONNECTING, null);
        }
    }

    public void stop() {
        transition(State.STOPPED, REASON_STOPPED);
    }

    /**
     * The handshake succeeded on {@code ch} with the neighbour's daemon at {@code incarnation}; a newer connection
     * replaces an older one.
     */
    public void established(Channel ch, long incarnation) {
        if (state == State.STOPPED || heldNanos() > 0) {
            ch.close();
            return;
        }
        replacedIncarnation = peerIncarnation > 0 && incarnation != peerIncarnation ? peerIncarnation : 0;
        peerIncarnation = incarnation;
        if (channel != null && channel != ch) {
            Channel old = channel;
            channel = null;
            old.close();
        }
        channel = ch;
        backoff.connected(System.nanoTime());
        transition(State.UP, null);
    }

    /** {@code ch} closed; a no-op if it is not the current channel. */
    public void closed(Channel ch, String reason) {
        if (ch != channel) {
            return;
        }
        channel = null;
        dropTransit();
        if (state == State.STOPPED) {
            return;
        }
        transition(dials ? State.BACKOFF : State.WAITING, reason);
    }

    /**
     * Drops the connection without a goodbye and never reconnects, telling no listener: what a crashed process's link
     * does (benchmarks and fault tests crash embedded daemons this way).
     */
    public void crash() {
        state = State.STOPPED;
        Channel ch = channel;
        channel = null;
        dropTransit();
        if (ch != null) {
            ch.close();
        }
    }

    private void dropTransit() {
        for (TransitQueue q : transit.values()) {
            scheduler.remove(q);
            q.clear();
        }
        transit.clear();
    }

    /** Cuts the current connection (tests and operators); the usual down/reconnect path follows. */
    public void cut() {
        cut(0);
    }

    /**
     * Cuts the current connection and keeps it down for {@code holdNanos}: this side neither dials nor takes a
     * connection until then, as with a cable pulled out (tests; hold both ends, or the other one flaps).
     */
    public void cut(long holdNanos) {
        heldUntilNanos = System.nanoTime() + holdNanos;
        if (channel != null) {
            channel.close();
        }
    }

    private long heldNanos() {
        return Math.max(0, heldUntilNanos - System.nanoTime());
    }

    private void transition(State next, String reason) {
        State prev = state;
        state = next;
        if (prev == State.UP && next != State.UP) {
            listener.linkDown(this, reason);
        }
        switch (next) {
            case CONNECTING -> connect();
            case UP -> {
                listener.linkUp(this);
                requestFlush();
            }
            case BACKOFF -> {
                long delay = Math.max(backoff.nextDelayNanos(), heldNanos());
                loop.schedule(() -> {
                    if (state == State.BACKOFF) {
                        transition(State.CONNECTING, null);
                    }
                }, delay, TimeUnit.NANOSECONDS);
            }
            case WAITING -> {
                if (prev == State.UP && connector != null) {
                    long run = peerIncarnation;
                    loop.schedule(() -> checkPeerListens(run), backoff.afterDropNanos(System.nanoTime()),
                            TimeUnit.NANOSECONDS);
                }
            }
            case STOPPED -> {
                if (channel != null) {
                    sayGoodbye(channel);
                }
            }
        }
    }

    /**
     * Tells the peer this server is shutting down (ERROR SHUTTING_DOWN) before closing, so its neighbours log an
     * orderly exit at INFO instead of a link failure at WARN; the failure detection that follows is unchanged.
     */
    private static void sayGoodbye(Channel ch) {
        if (ch.isActive()) {
            ch.writeAndFlush(FrameWriter.error(ch.alloc(), ErrorCode.SHUTTING_DOWN, "server shutting down"))
                    .addListener(ChannelFutureListener.CLOSE);
        } else {
            ch.close();
        }
    }

    private void connect() {
        ChannelFuture f = connector.connect(peerAddress);
        f.addListener(done -> {
            if (!done.isSuccess()) {
                LOG.debug("connect {} -> {} failed: {}", port.label(), peerAddress, String.valueOf(done.cause()));
                if (Transports.refusedDial(done.cause())) {
                    listener.linkDown(this, REASON_REFUSED);
                }
                if (state == State.CONNECTING) {
                    transition(State.BACKOFF, null);
                }
                return;
            }
            // A connection that dies before its handshake completes must still lead to a retry.
            f.channel().closeFuture().addListener(c -> {
                if (state == State.CONNECTING && channel == null) {
                    transition(State.BACKOFF, null);
                }
            });
        });
    }

    /**
     * The accepting side would learn of a killed neighbour only at the failure timeout: once a connection drops, it
     * dials the neighbour's address once, bare (closed at once), at once after a connection that stood
     * ({@link ReconnectBackoff}). Refused while the link is still down from run {@code run}, that run is gone.
     */
    private void checkPeerListens(long run) {
        if (state != State.WAITING || peerIncarnation != run || heldNanos() > 0) {
            return;
        }
        connector.connect(peerAddress).addListener(done -> {
            ChannelFuture f = (ChannelFuture) done;
            if (f.isSuccess()) {
                f.channel().close();
            } else if (Transports.refusedDial(f.cause()) && state == State.WAITING && peerIncarnation == run) {
                listener.linkDown(this, REASON_REFUSED);
            }
        });
    }

    // ---- sending ----

    /** Queues a source that has a frame to send. */
    public void schedule(ScheduledSource s) {
        scheduler.enqueue(s);
        requestFlush();
    }

    /**
     * Forwards a decoded routed frame of {@code job} (ownership passes); dropped if the link is down.
     *
     * @return false if the frame was dropped because the node's transit allowance is used up
     */
    public boolean forward(ByteBuf frame, long job) {
        if (state != State.UP) {
            frame.release();
            return true;
        }
        TransitQueue q = transit.get(job);
        if (q == null) {
            q = new TransitQueue(job, transitAllowance);
            if (!q.add(frame)) {
                return false;
            }
            transit.put(job, q);
        } else if (!q.add(frame)) {
            return false;
        }
        schedule(q);
        return true;
    }

    /** Sends a control frame (CREDIT, URGENT: no credit needed, tiny) ahead of data; dropped if the link is down. */
    public void sendControl(ByteBuf frame) {
        if (channel == null || state != State.UP) {
            frame.release();
            return;
        }
        channel.write(frame, channel.voidPromise());
        requestFlush();
    }

    /** What became of a service message handed to {@link #sendService}. */
    public enum ServiceSend { SENT, LINK_DOWN, QUEUE_FULL }

    /**
     * Sends a service message frame ahead of data, like {@link #sendControl}, unless the connection already holds more
     * than the service queue cap of unsent bytes (a peer that stopped reading): then it is dropped. Takes ownership of
     * {@code frame} (released when dropped).
     */
    public ServiceSend sendService(ByteBuf frame) {
        Channel ch = channel;
        if (ch == null || state != State.UP) {
            frame.release();
            return ServiceSend.LINK_DOWN;
        }
        io.netty.channel.ChannelOutboundBuffer pending = ch.unsafe().outboundBuffer();
        if (pending != null && pending.totalPendingWriteBytes() + frame.readableBytes() > serviceQueueMaxBytes) {
            frame.release();
            return ServiceSend.QUEUE_FULL;
        }
        ch.write(frame, ch.voidPromise());
        requestFlush();
        return ServiceSend.SENT;
    }

    /** Asks for one run of the send loop; repeated requests before it runs coalesce. */
    public void requestFlush() {
        if (!flushScheduled) {
            flushScheduled = true;
            loop.execute(this::sendLoop);
        }
    }

    private void sendLoop() {
        flushScheduled = false;
        Channel ch = channel;
        if (ch == null || state != State.UP) {
            return;
        }
        while (ch.isWritable()) {
            if (outBucket != null && !outBucket.mayProceed()) {
                armShapingTimer();
                break;
            }
            ScheduledSource s = scheduler.next();
            if (s == null) {
                break;
            }
            int n = s.writeNext(ch, self);
            bytesSent += n;
            if (outBucket != null) {
                outBucket.consume(n);
            }
            if (s.nextFrameBytes() > 0) {
                scheduler.enqueue(s);
            } else if (s instanceof TransitQueue q && q.isEmpty()) {
                transit.remove(q.job(), q);
            }
        }
        ch.flush();
    }

    private void armShapingTimer() {
        if (!shapingTimerArmed) {
            shapingTimerArmed = true;
            loop.schedule(() -> {
                shapingTimerArmed = false;
                requestFlush();
            }, Math.max(1000, outBucket.nanosUntilReady()), TimeUnit.NANOSECONDS);
        }
    }
}
