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
 * Turns one node's link transitions into failure reports, telling a broken link from a dead server. A neighbour whose
 * link goes down is suspected at once. If the link is still down after half the failure timeout, the node routes
 * around it ({@link Actions#routeAround}, and {@link TransportListener#linkCut} so the layer above can tell every
 * daemon) and asks the neighbour, along the new route, whether it is alive, a few times over the second half. A
 * neighbour that answers is alive behind a cut link: it is not declared failed, and its traffic keeps going around the
 * link. One that does not answer by the full timeout is declared failed. So a dead server is declared failed exactly
 * as soon as before, and a cut cable or a broken connection between two live servers no longer takes either out of
 * the torus.
 *
 * <p>An orderly close (this node or the peer shutting down, or the whole cluster going down) is logged as such rather
 * than as an incident. Owned by the node's event loop.
 */
final class FailureDetector {

    private static final Logger LOG = LoggerFactory.getLogger(FailureDetector.class);
    /** Probes sent over the second half of the timeout: a lost probe or answer is retried. */
    private static final int PROBES_PER_HALF = 4;

    /** What the detector does to the node. */
    interface Actions {
        /** Avoids the link to {@code link.peer()} from now on, resending what was in flight on it. */
        void routeAround(Link link);

        /** Asks server {@code peer}, along the current routes, to answer ({@link #answered}). */
        void probe(int peer);
    }

    /** Where a neighbour whose link is down stands. */
    private enum Phase {
        /** Link down for less than half the timeout: it may come back by itself. */
        SUSPECTED,
        /** Routed around, asked whether it is alive; no answer yet. */
        PROBING,
        /** Answered around the cut link: alive, not to be declared failed. */
        ANSWERED
    }

    private static final class Suspect {
        final Link link;
        Phase phase = Phase.SUSPECTED;
        ScheduledFuture<?> timer;
        ScheduledFuture<?> probes;

        Suspect(Link link) {
            this.link = link;
        }

        void cancel() {
            if (timer != null) {
                timer.cancel(false);
            }
            if (probes != null) {
                probes.cancel(false);
            }
        }
    }

    private final TorusShape shape;
    private final int self;
    private final EventLoop loop;
    private final long halfNanos;
    private final List<TransportListener> listeners;
    private final Actions actions;
    private final Map<Integer, Suspect> suspects = new HashMap<>();
    /** Per neighbour, the run of its daemon this node last declared failed (a run is declared once). */
    private final Map<Integer, Long> declared = new HashMap<>();
    /** The whole cluster is going down ({@link #expectShutdown}), so lost links are no incident. */
    private boolean clusterShuttingDown;

    FailureDetector(TorusShape shape, int self, EventLoop loop, long timeoutNanos, List<TransportListener> listeners,
            Actions actions) {
        this.shape = shape;
        this.self = self;
        this.loop = loop;
        this.halfNanos = Math.max(1, timeoutNanos / 2);
        this.listeners = listeners;
        this.actions = actions;
    }

    /** The link to {@code link.peer()} is up: it is no longer on its way to being declared failed. */
    void up(Link link) {
        Suspect s = suspects.remove(link.peer());
        if (s != null) {
            s.cancel();
        }
    }

    /**
     * The link went down: report it, suspect the peer, and start the two halves of the timeout. Or a dial was refused
     * ({@link Link#REASON_REFUSED}): see {@link #refused}.
     */
    void down(Link link, String reason) {
        if (Link.REASON_REFUSED.equals(reason)) {
            refused(link);
            return;
        }
        int peer = link.peer();
        if (clusterShuttingDown || Link.REASON_STOPPED.equals(reason) || Link.REASON_PEER_SHUT_DOWN.equals(reason)) {
            // This node or the peer is shutting down: an orderly close, not an incident.
            LOG.info("link {} from {} to {} closed: {}", link.port().label(), shape.coord(self), shape.coord(peer), reason);
        } else {
            LOG.warn("link {} from {} to {} is down: {}", link.port().label(), shape.coord(self), shape.coord(peer),
                    reason);
        }
        tell("linkDown", l -> l.linkDown(link.port(), shape.coord(peer), reason));
        tell("serverSuspected", l -> l.serverSuspected(shape.coord(peer)));
        if (!suspects.containsKey(peer)) {
            Suspect s = new Suspect(link);
            suspects.put(peer, s);
            s.timer = loop.schedule(() -> routeAround(s), halfNanos, TimeUnit.NANOSECONDS);
        }
    }

    /**
     * The link to {@code link.peer()} came up. If to another run of its daemon than the one before, that earlier run
     * is dead (its process is gone; a process has one incarnation), whether or not its failure timeout ran out:
     * declared failed at once, so the shuffles it took part in restart now rather than wait on streams that will never
     * come.
     */
    void restarted(Link link) {
        long ended = link.replacedIncarnation();
        if (ended == 0 || !declare(link.peer(), ended)) {
            return; // its failure timeout ran out before the new run connected: declared then
        }
        LOG.warn("server {}'s daemon restarted (incarnation {}, was {}): its earlier run is declared failed",
                shape.coord(link.peer()), link.peerIncarnation(), ended);
        tell("serverFailed", l -> l.serverFailed(shape.coord(link.peer()), ended));
    }

    /**
     * A dial to {@code link.peer()} was refused: its host answered and no daemon listens there, so the run the link
     * last connected to is gone (a daemon listens for as long as it runs), and is declared failed at once rather than
     * after the failure timeout. A host that is down, or a cable, times out instead, and takes the timeout as before.
     * Nothing before the link ever came up (the daemons of a cluster start at different times).
     */
    void refused(Link link) {
        long run = link.peerIncarnation();
        if (clusterShuttingDown || run == 0 || !declare(link.peer(), run)) {
            return;
        }
        Suspect s = suspects.remove(link.peer());
        if (s != null) {
            s.cancel();
        }
        LOG.warn("server {} refuses connections: its daemon (incarnation {}) is gone, declared failed", shape.coord(
                link.peer()), run);
        tell("serverFailed", l -> l.serverFailed(shape.coord(link.peer()), run));
    }

    /** Records that run {@code incarnation} of {@code peer}'s daemon is declared failed here; false if it was. */
    private boolean declare(int peer, long incarnation) {
        Long before = declared.put(peer, incarnation);
        return before == null || before != incarnation;
    }

    /**
     * A probe's answer came from {@code server}'s daemon at {@code incarnation}: if its link is cut, it is alive behind
     * it; if the answer comes from a later run than the one whose link went down, that run is dead: declared failed.
     */
    void answered(int server, long incarnation) {
        Suspect s = suspects.get(server);
        if (s == null || s.phase != Phase.PROBING) {
            return;
        }
        long suspected = s.link.peerIncarnation();
        if (suspected > 0 && incarnation != suspected) {
            s.cancel();
            suspects.remove(server);
            declare(server, suspected);
            LOG.warn("server {} answers around the cut link {} from {} as another run of its daemon (incarnation {},"
                    + " was {}): the earlier run is declared failed", shape.coord(server), s.link.port().label(),
                    shape.coord(self), incarnation, suspected);
            tell("serverFailed", l -> l.serverFailed(shape.coord(server), suspected));
            return;
        }
        s.cancel();
        s.phase = Phase.ANSWERED;
        LOG.warn("server {} answers around the cut link {} from {}: alive, not failed; traffic goes around the link",
                shape.coord(server), s.link.port().label(), shape.coord(self));
    }

    private void routeAround(Suspect s) {
        if (s.link.isUp() || suspects.get(s.link.peer()) != s) {
            return;
        }
        int peer = s.link.peer();
        s.phase = Phase.PROBING;
        LOG.warn("link {} from {} to {} down for half the failure timeout: routing around it and asking {} whether it"
                + " is alive", s.link.port().label(), shape.coord(self), shape.coord(peer), shape.coord(peer));
        actions.routeAround(s.link);
        tell("linkCut", l -> l.linkCut(s.link.port(), shape.coord(peer), s.link.peerIncarnation()));
        long every = Math.max(1, halfNanos / PROBES_PER_HALF);
        s.probes = loop.scheduleAtFixedRate(() -> actions.probe(peer), 0, every, TimeUnit.NANOSECONDS);
        s.timer = loop.schedule(() -> declareIfSilent(s), halfNanos, TimeUnit.NANOSECONDS);
    }

    private void declareIfSilent(Suspect s) {
        if (s.phase != Phase.PROBING || s.link.isUp() || suspects.get(s.link.peer()) != s) {
            return;
        }
        s.cancel();
        suspects.remove(s.link.peer());
        LOG.warn("server {} unreachable for the failure timeout (its link down, no answer around it): declared failed",
                shape.coord(s.link.peer()));
        declare(s.link.peer(), s.link.peerIncarnation());
        tell("serverFailed", l -> l.serverFailed(shape.coord(s.link.peer()), s.link.peerIncarnation()));
    }

    /**
     * Calls every listener; one that throws is logged and the others still hear the event. Links go down while the
     * node closes, and a listener that threw then broke off the close (a stopping daemon's status file did).
     */
    private void tell(String event, java.util.function.Consumer<TransportListener> call) {
        for (TransportListener l : listeners) {
            try {
                call.accept(l);
            } catch (RuntimeException e) {
                LOG.error("a transport listener failed on {} at {}", event, shape.coord(self), e);
            }
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
        suspects.values().forEach(Suspect::cancel);
        suspects.clear();
    }
}
