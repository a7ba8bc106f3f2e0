package org.camdoop.shuffle.service;

import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import org.camdoop.shuffle.protocol.ShuffleGeneration;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.service.net.MembershipMessages;
import org.camdoop.shuffle.service.net.MembershipMessages.LinkRuns;
import org.camdoop.shuffle.service.net.MembershipMessages.ServerRun;
import org.camdoop.shuffle.service.net.ShuffleMessages;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.Port;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.TorusNode;
import org.camdoop.torus.transport.TransportListener;
import org.camdoop.torus.transport.wire.StreamId;

/**
 * This daemon's failure view (failed and vacant servers, cut links), derived from its {@link Membership} (the runs of
 * the other daemons declared failed, the links cut and come back up), replaced whole and installed in the transport on
 * each change whoever reported it; and the view a shuffle generation is planned on: the vacant coordinates plus the
 * failures its root named (never the cuts), the same on every daemon.
 *
 * <p>It also keeps the views in step. Cuts and links that come up flood the torus one hop at a time, each daemon
 * passing on what changed its view (and a later run on a link whose end failed or which was cut, which may change
 * another daemon's); a link that comes up also carries this daemon's whole view to the neighbour
 * (VIEW), so a restarted daemon learns the failures and cuts it missed while it was down, and its neighbours learn,
 * from the larger incarnation its handshake proved, that it rejoined (docs/recovery.md, "Rejoin").
 *
 * <p>Thread-safety: updates are serialised by this object's monitor; readers see the latest view (volatile).
 * Messages are sent outside the monitor: two changes' messages may leave in either order, which the receivers'
 * merge by maximum does not mind.
 */
final class DaemonView {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(DaemonView.class);
    /** Entries per VIEW message: about 20 bytes each, so a message stays far inside one transport frame. */
    private static final int VIEW_ENTRIES_PER_MESSAGE = 1000;
    private final TorusNode node;
    private final TorusShape shape;
    private final FailureView initial;
    private final Membership membership;
    private final DaemonCounters counters;
    private volatile FailureView view;
    /** Futures waiting for the view to satisfy their predicate (guarded by this). */
    private final List<Map.Entry<Predicate<FailureView>, CompletableFuture<FailureView>>> waiters = new ArrayList<>();
    /** Where the failures this daemon's transport declares go, once the service started (guarded by this). */
    private java.util.function.Consumer<ServerRun> declared;
    /** Failures declared here before the service started (guarded by this). */
    private final List<ServerRun> declaredBeforeStart = new ArrayList<>();
    /** Runs of neighbours kept out that this daemon warned of once (a reconnecting one would repeat it). */
    private final Set<ServerRun> warnedOut = java.util.concurrent.ConcurrentHashMap.newKeySet();

    DaemonView(TorusNode node, FailureView initial, DaemonCounters counters) {
        this.node = node;
        this.counters = counters;
        this.shape = node.shape();
        this.initial = initial;
        this.view = initial;
        this.membership = new Membership(shape, node.index(), node.incarnation());
        node.addListener(new TransportListener() {
            @Override
            public void linkCut(Port port, Coord peer, long peerIncarnation) {
                // On the event loop: the transport routes around it already.
                cutLink(new LinkRuns(node.index(), node.incarnation(), shape.index(peer), peerIncarnation));
            }

            @Override
            public void linkUp(Port port, Coord peer, long peerIncarnation) {
                // On the event loop, like linkCut.
                neighbourUp(shape.index(peer), peerIncarnation, false);
            }

            @Override
            public void serverFailed(Coord server, long incarnation) {
                declaredHere(new ServerRun(shape.index(server), incarnation));
            }
        });
    }

    /** A failure this daemon's transport declared: to the service, or kept for it until it {@link #start}s. */
    private void declaredHere(ServerRun run) {
        java.util.function.Consumer<ServerRun> to;
        synchronized (this) {
            to = declared;
            if (to == null) {
                declaredBeforeStart.add(run);
                return;
            }
        }
        to.accept(run);
    }

    /**
     * The service is ready for messages: hands the failures this daemon's transport declares to {@code declared} (on
     * the event loop: the view changes at once; those declared before now first). Links that came up before (a
     * daemon's transport dials as it starts) were not seen here, and the VIEWs their neighbours sent then were
     * dropped: takes those links in, and asks each of those neighbours for its view.
     */
    void start(java.util.function.Consumer<ServerRun> declared) {
        List<ServerRun> before;
        synchronized (this) {
            this.declared = declared;
            before = new ArrayList<>(declaredBeforeStart);
            declaredBeforeStart.clear();
        }
        before.forEach(declared);
        for (org.camdoop.torus.transport.LinkState l : node.linkStates()) {
            if (l.up()) {
                neighbourUp(shape.index(l.peer()), l.peerIncarnation(), true);
            }
        }
    }

    /** The link to neighbour {@code p}, whose daemon is at {@code incarnation}, is up: take it in, send the view. */
    private void neighbourUp(int p, long incarnation, boolean ask) {
        linkCameUp(new LinkRuns(node.index(), node.incarnation(), p, incarnation));
        if (!view.isLive(p) && !initial.isVacant(p) && warnedOut.add(new ServerRun(p, incarnation))) {
            LOG.warn("server {} is connected again but stays out of the torus: its daemon is a run (incarnation {}) no"
                    + " later than the one declared failed (a partition healed, or its clock was set back); restart it"
                    + " to rejoin", shape.coord(p), incarnation);
        }
        sendView(p, ask);
    }

    FailureView current() {
        return view;
    }

    /**
     * Takes run {@code r} of a server as failed. When a later run of it has connected since, the server stays in the
     * view, and this daemon floods the link record that shows the later run: the daemons that took the report for news
     * and the server out learn from it that it is back (views would differ otherwise, since an up that changes nothing
     * where it is first seen is not passed on).
     */
    Membership.Failure markFailed(ServerRun r) {
        Membership.Failure f;
        List<LinkRuns> later = List.of();
        synchronized (this) {
            f = membership.failed(r);
            if (f == Membership.Failure.OUT) {
                install();
            } else if (f == Membership.Failure.LATER_RUN_LIVE) {
                later = membership.upsAfter(r);
            }
        }
        later.forEach(up -> flood(MembershipMessages.linkUp(up)));
        return f;
    }

    /**
     * Routes around {@code link} from now on: detected here (it stayed down for half the failure timeout) or told by
     * a peer (LINK_CUT, VIEW). The first time (or naming a later run of an end), tells its live neighbours over their
     * own links, which then do the same: the cut floods the torus one hop at a time, a message per daemon and link,
     * and reaches every daemon still connected whatever the other daemons' routes (a message routed several hops could
     * be sent back across the cut link by a daemon that does not know of it yet, and die there; telling every daemon
     * directly from every daemon cost 700 routed messages per cut, and made the fault campaign half as slow again). The
     * view a shuffle is planned on does not change: its edges across the link just take a longer path.
     */
    void cutLink(LinkRuns link) {
        boolean news;
        boolean changed;
        synchronized (this) {
            news = membership.isLaterCut(link);
            changed = membership.cut(link);
            if (changed) {
                install();
            }
        }
        if (changed) {
            LOG.warn("the link between {} and {} is cut: routing around it", shape.coord(link.a()),
                    shape.coord(link.b()));
        }
        if (news) { // changed implies news: a cut only takes a link out when its record grows
            // A later cut that changes nothing here (an older one stands, its up not heard yet) still changes the
            // view of a daemon that heard that up: passed on too, so views do not depend on the order of reports.
            flood(MembershipMessages.linkCut(link));
        }
    }

    /**
     * {@code link} came up (here, or as a peer told with LINK_UP or VIEW). If that brings a failed server back (a later
     * run of its daemon connected) or lifts a cut, the view changes and the news floods the torus as cuts do; so does
     * a later run on a link whose end failed or which was cut, even where it changes nothing
     * ({@link Membership#isLiftingNews}).
     */
    void linkCameUp(LinkRuns link) {
        boolean rejoinedA;
        boolean rejoinedB;
        boolean news;
        boolean changed;
        synchronized (this) {
            boolean failedA = membership.isFailed(link.a());
            boolean failedB = membership.isFailed(link.b());
            news = membership.isLiftingNews(link);
            changed = membership.up(link);
            rejoinedA = failedA && !membership.isFailed(link.a());
            rejoinedB = failedB && !membership.isFailed(link.b());
            if (changed) {
                // Counted before the view shows it: whoever sees the server back sees the rejoin counted.
                for (boolean rejoined : new boolean[] {rejoinedA, rejoinedB}) {
                    if (rejoined) {
                        counters.rejoined();
                    }
                }
                install();
            }
        }
        if (!changed) {
            if (news) {
                // Changes nothing here (another link showed the rejoin first), but a daemon that heard a cut of this
                // link late, or missed the rejoin, needs it: views must not depend on the order of the reports.
                flood(MembershipMessages.linkUp(link));
            }
            return;
        }
        if (rejoinedA) {
            LOG.info("server {} rejoined: a new run of its daemon (incarnation {}) is up", shape.coord(link.a()),
                    link.aIncarnation());
        }
        if (rejoinedB) {
            LOG.info("server {} rejoined: a new run of its daemon (incarnation {}) is up", shape.coord(link.b()),
                    link.bIncarnation());
        }
        if (!rejoinedA && !rejoinedB) {
            LOG.info("the link between {} and {} is up between new runs of their daemons: no longer routed around",
                    shape.coord(link.a()), shape.coord(link.b()));
        }
        flood(MembershipMessages.linkUp(link));
    }

    /**
     * Applies {@code m} if it is one of the failure view's messages (SERVER_DOWN, LINK_CUT, LINK_UP, VIEW), handing
     * each failure to {@code serverDown} (which takes it into the view and stops what it must); false for any other
     * message.
     */
    boolean handle(Coord from, ShuffleMessages.Message m, java.util.function.Consumer<ServerRun> serverDown) {
        if (m instanceof MembershipMessages.ServerDown d) {
            serverDown.accept(d.run());
        } else if (m instanceof MembershipMessages.LinkCut c) {
            cutLink(c.link());
        } else if (m instanceof MembershipMessages.LinkUp u) {
            linkCameUp(u.link());
        } else if (m instanceof MembershipMessages.View v) {
            // Ups first: a failure of a run that a later one replaced is then seen to be stale, and aborts nothing.
            v.ups().forEach(this::linkCameUp);
            v.cuts().forEach(this::cutLink);
            v.failed().forEach(serverDown);
            if (v.ask()) {
                sendView(shape.index(from), false);
            }
        } else {
            return false;
        }
        return true;
    }

    /** The failed servers a generation names, each with the run of it declared failed. */
    static List<ServerRun> failedRuns(ShuffleGeneration g) {
        int[] failed = g.failed();
        long[] runs = g.incarnations();
        List<ServerRun> out = new ArrayList<>();
        for (int i = 0; i < failed.length; i++) {
            out.add(new ServerRun(failed[i], runs[i]));
        }
        return out;
    }

    /** The failures a new generation is planned with, and the runs declared failed, as its START names them. */
    synchronized ShuffleGeneration firstGeneration() {
        return ShuffleGeneration.first(failed(), failedRuns(), node.incarnation());
    }

    /** The generation after {@code g}, resuming after {@code lastKey}, with the failures known now. */
    synchronized ShuffleGeneration nextGeneration(ShuffleGeneration g, Optional<byte[]> lastKey) {
        return g.next(lastKey, failed(), failedRuns());
    }

    /**
     * Per server, the latest run of its daemon known to have connected: a generation planned now has nothing on any
     * earlier run (one run at a time holds a daemon's address, so an earlier run had ended when a later connected).
     */
    synchronized long[] knownRuns() {
        return membership.knownRuns();
    }

    /** The latest run of server {@code s} declared failed, whether or not a later run rejoined since; -1: none. */
    synchronized long declaredRun(int s) {
        return membership.declaredRun(s);
    }

    /** The runs this daemon knows declared failed, for a peer that asked for the view's failures (START, VIEW). */
    synchronized MembershipMessages.View snapshot() {
        return new MembershipMessages.View(false, membership.failures(), membership.cutLinks(),
                membership.liftingUps());
    }

    /** Completes with the view once it satisfies {@code condition} (at once if it does now). */
    synchronized CompletableFuture<FailureView> when(Predicate<FailureView> condition) {
        if (condition.test(view)) {
            return CompletableFuture.completedFuture(view);
        }
        CompletableFuture<FailureView> f = new CompletableFuture<>();
        waiters.add(Map.entry(condition, f));
        return f;
    }

    /** Under the monitor. */
    private void install() {
        FailureView v = membership.applyTo(initial);
        view = v;
        node.setFailureView(v);
        // Completed on another thread: not under this monitor, nor on the event loop, whatever the waiter does next.
        waiters.removeIf(w -> {
            if (w.getKey().test(v)) {
                w.getValue().completeAsync(() -> v);
                return true;
            }
            return w.getValue().isDone();
        });
    }

    /**
     * Sends this daemon's view to neighbour {@code peer}, whose link just came up: one message, which the receiver
     * applies ups first, then cuts, then failures (a failure applied before the up that makes it stale would take a
     * rejoined server out for a moment). A view of more than {@link #VIEW_ENTRIES_PER_MESSAGE} entries goes in parts
     * in that order, which the receiver's threads may apply in any order: the same view results, after such moments.
     * Nothing when the view is empty, unless it {@code ask}s for the neighbour's (the ask rides on the last part).
     */
    private void sendView(int peer, boolean ask) {
        MembershipMessages.View v = snapshot();
        List<Object> entries = new ArrayList<>(v.ups());
        entries.addAll(v.cuts());
        entries.addAll(v.failed());
        if (entries.isEmpty() && !ask) {
            return;
        }
        StreamId control = new StreamId(0, 0, ControlTrees.CONTROL, node.index());
        int ups = v.ups().size();
        int cuts = v.cuts().size();
        for (int from = 0; from < entries.size() || from == 0; from += VIEW_ENTRIES_PER_MESSAGE) {
            int to = Math.min(entries.size(), from + VIEW_ENTRIES_PER_MESSAGE);
            MembershipMessages.View part = new MembershipMessages.View(ask && to == entries.size(),
                    v.failed().subList(clamp(from - ups - cuts, v.failed().size()),
                            clamp(to - ups - cuts, v.failed().size())),
                    v.cuts().subList(clamp(from - ups, cuts), clamp(to - ups, cuts)),
                    v.ups().subList(clamp(from, ups), clamp(to, ups)));
            node.sendService(shape.coord(peer), control, Unpooled.wrappedBuffer(MembershipMessages.view(part)));
        }
    }

    private static int clamp(int i, int size) {
        return Math.max(0, Math.min(size, i));
    }

    /** Tells every live neighbour over its own link (or around it, if that link is cut). */
    private void flood(byte[] message) {
        StreamId control = new StreamId(0, 0, ControlTrees.CONTROL, node.index());
        FailureView v = view;
        for (Port p : shape.links()) {
            int n = shape.neighbour(node.index(), p);
            if (n != node.index() && v.isLive(n)) {
                node.sendService(shape.coord(n), control, Unpooled.wrappedBuffer(message));
            }
        }
    }

    /** The runs failed now of servers that generation {@code g} was planned with live. */
    synchronized List<ServerRun> failedSince(ShuffleGeneration g) {
        int[] planned = g.failed(); // ascending
        return Arrays.stream(failed()).filter(f -> Arrays.binarySearch(planned, f) < 0)
                .mapToObj(f -> new ServerRun(f, membership.failedRun(f))).toList();
    }

    /** Indices of the servers failed now, ascending (under the monitor). */
    private int[] failed() {
        return java.util.stream.IntStream.range(0, shape.size()).filter(membership::isFailed).toArray();
    }

    /** The run declared failed of each server {@link #failed()} names, in its order (under the monitor). */
    private long[] failedRuns() {
        return Arrays.stream(failed()).mapToLong(membership::failedRun).toArray();
    }

    /** The view {@code spec}'s generation is planned on, on every daemon alike. */
    FailureView planView(ShuffleSpec spec) {
        FailureView v = initial;
        for (int f : spec.generation().failed()) {
            v = v.withFailed(shape.coord(f));
        }
        return v;
    }

    /** Whether every index names a server of this torus (a peer's message may name anything). */
    boolean names(int[] servers) {
        return Arrays.stream(servers).allMatch(i -> i >= 0 && i < shape.size());
    }

    /** The live servers other than this one. */
    Set<Integer> livePeers() {
        FailureView v = view;
        Set<Integer> peers = new TreeSet<>();
        for (int s = 0; s < shape.size(); s++) {
            if (s != node.index() && v.isLive(s)) {
                peers.add(s);
            }
        }
        return peers;
    }

    /** Tells every live server other than this one that this daemon declared run {@code r} failed (SERVER_DOWN). */
    void tellFailed(ServerRun r) {
        tellLivePeers(new StreamId(0, 0, ControlTrees.CONTROL, node.index()), MembershipMessages.serverDown(r));
    }

    /** Sends a service message to every live server other than this one (best effort, like every service message). */
    void tellLivePeers(StreamId id, byte[] message) {
        for (int s : livePeers()) {
            node.sendService(shape.coord(s), id, Unpooled.wrappedBuffer(message));
        }
    }
}
