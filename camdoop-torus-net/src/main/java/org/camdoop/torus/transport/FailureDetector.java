package org.camdoop.torus.transport;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.link.Link;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns one node's link transitions into failure reports: a neighbour whose link goes down is suspected at once and
 * declared failed if its link stays down for the failure timeout; an orderly close (this node or the peer shutting
 * down, or the whole cluster going down) is logged as such rather than as an incident. Owned by the node's event loop.
 */
final class FailureDetector {

    private static final Logger LOG = LoggerFactory.getLogger(FailureDetector.class);

    private final TorusShape shape;
    private final int self;
    private final EventLoop loop;
    private final long timeoutNanos;
    private final List<TransportListener> listeners;
    private final Map<Integer, ScheduledFuture<?>> timers = new HashMap<>();
    /** The whole cluster is going down ({@link #expectShutdown}), so lost links are no incident. */
    private boolean clusterShuttingDown;

    FailureDetector(TorusShape shape, int self, EventLoop loop, long timeoutNanos, List<TransportListener> listeners) {
        this.shape = shape;
        this.self = self;
        this.loop = loop;
        this.timeoutNanos = timeoutNanos;
        this.listeners = listeners;
    }

    /** The link to {@code link.peer()} is up: it is no longer on its way to being declared failed. */
    void up(Link link) {
        ScheduledFuture<?> t = timers.remove(link.peer());
        if (t != null) {
            t.cancel(false);
        }
    }

    /** The link went down: report it, suspect the peer, and declare it failed if the link stays down. */
    void down(Link link, String reason) {
        int peer = link.peer();
        if (clusterShuttingDown || Link.REASON_STOPPED.equals(reason) || Link.REASON_PEER_SHUT_DOWN.equals(reason)) {
            // This node or the peer is shutting down: an orderly close, not an incident.
            LOG.info("link {} from {} to {} closed: {}", link.port().label(), shape.coord(self), shape.coord(peer), reason);
        } else {
            LOG.warn("link {} from {} to {} is down: {}", link.port().label(), shape.coord(self), shape.coord(peer),
                    reason);
        }
        listeners.forEach(l -> l.linkDown(link.port(), shape.coord(peer), reason));
        listeners.forEach(l -> l.serverSuspected(shape.coord(peer)));
        if (!timers.containsKey(peer)) {
            timers.put(peer, loop.schedule(() -> {
                timers.remove(peer);
                if (!link.isUp()) {
                    LOG.warn("server {} unreachable for the failure timeout: declared failed", shape.coord(peer));
                    listeners.forEach(l -> l.serverFailed(shape.coord(peer)));
                }
            }, timeoutNanos, TimeUnit.NANOSECONDS));
        }
    }

    /**
     * Every server is about to shut down (an embedded torus closing): links lost from now on are logged as an orderly
     * exit. A peer's goodbye frame can go unread when its in-JVM channel closes first; this covers that case without
     * weakening failure detection for real clusters.
     */
    void expectShutdown() {
        clusterShuttingDown = true;
    }

    void cancelAll() {
        timers.values().forEach(t -> t.cancel(false));
        timers.clear();
    }
}
