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
 * <p>Most deaths are declared sooner: a killed daemon's host refuses the bare dial the accepting end of a dropped link
 * makes at once, and the dialling end's redial ({@link #refused}); the first declaration reaches every daemon. A
 * neighbour already out of the view when half the timeout passes is neither cut nor probed ({@link Phase#OUT}).
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
        ANSWERED,
        /**
         * Out of the view at half the timeout (declared failed elsewhere): nothing to report while it stays out. If a
         * later run rejoins through other links while this one is still down, the link is suspected afresh
         * ({@link #viewChanged}).
         */
        OUT
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
    /** Whether a server is out of the node's failure view: some daemon declared its latest known run failed. */
    private final java.util.function.IntPredicate outOfView;
    private final Map<Integer, Suspect> suspects = new HashMap<>();
    /** Per neighbour, the run of its daemon this node last declared failed (a run is declared once). */
    private final Map<Integer, Long> declared = new HashMap<>();
    /** The whole cluster is going down ({@link #expectShutdown}), so lost links are no incident. */
    private boolean clusterShuttingDown;

    FailureDetector(TorusShape shape, int self, EventLoop loop, long timeoutNanos, List<TransportListener> listeners,
            Actions actions, java.util.function.IntPredicate outOfView) {
        this.outOfView = outOfView;
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
        Suspect s = suspects.get(link.peer());
        if (s != null) {
            // Kept, out of the view: if a later run rejoins through other links while this one stays down, the link
            // is suspected afresh (viewChanged).
            s.cancel();
            s.phase = Phase.OUT;
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
     * it; if the answer comes from a later run than the one whose link went down, that run is dead: declared failed,
     * unless it was already (its dial refused), and then the later run is alive behind the cut link.
     */
    void answered(int server, long incarnation) {
        Suspect s = suspects.get(server);
        if (s == null || s.phase != Phase.PROBING) {
            return;
        }
        long suspected = s.link.peerIncarnation();
        if (suspected > 0 && incarnation != suspected && declare(server, suspected)) {
            s.cancel();
            suspects.remove(server);
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
        if (outOfView.test(peer)) {
            // Declared failed meanwhile (by a neighbour whose dial it refused, usually): its latest known run, so the
            // one this link last connected to, is out of every route. A cut of the link to that run is no news, and
            // one that reached a daemon after the server rejoined could keep a healthy link cut there.
            s.phase = Phase.OUT;
            LOG.info("link {} from {} to {} still down; {} is declared failed already", s.link.port().label(),
                    shape.coord(self), shape.coord(peer), shape.coord(peer));
            return;
        }
        s.phase = Phase.PROBING;
        LOG.warn("link {} from {} to {} down for half the failure timeout: routing around it and asking {} whether it"
                + " is alive", s.link.port().label(), shape.coord(self), shape.coord(peer), shape.coord(peer));
        actions.routeAround(s.link);
        tell("linkCut", l -> l.linkCut(s.link.port(), shape.coord(peer), s.link.peerIncarnation()));
        long every = Math.max(1, halfNanos / PROBES_PER_HALF);
        s.probes = loop.scheduleAtFixedRate(() -> actions.probe(peer), 0, every, TimeUnit.NANOSECONDS);
        s.timer = loop.schedule(() -> declareIfSilent(s), halfNanos, TimeUnit.NANOSECONDS);
    }

    /**
     * The node's failure view changed: a neighbour taken {@link Phase#OUT} that is back in the view (a later run of
     * its daemon rejoined through other links) while its link to this node is still down is suspected afresh, and
     * dialled now if this side dials (its backoff may have grown to more than the timeout while the neighbour was
     * dead; a rejoined daemon dials its other neighbours as it starts). If the link is still down a whole failure
     * timeout later, it is cut as any other: the cable may be broken.
     */
    void viewChanged() {
        for (Suspect s : suspects.values()) {
            if (s.phase == Phase.OUT && !outOfView.test(s.link.peer()) && !s.link.isUp()) {
                s.phase = Phase.SUSPECTED;
                s.link.start();
                s.timer = loop.schedule(() -> routeAround(s), 2 * halfNanos, TimeUnit.NANOSECONDS);
            }
        }
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
