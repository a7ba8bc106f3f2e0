package org.camdoop.shuffle.service;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.camdoop.shuffle.service.net.MembershipMessages.LinkRuns;
import org.camdoop.shuffle.service.net.MembershipMessages.ServerRun;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.TorusShape;

/**
 * What this daemon knows of the other daemons' runs: which run of each server was declared failed, which links were
 * cut and came up again, and between which runs of their ends. Everything is merged by maximum, so two daemons that
 * heard the same reports, in any order, hold the same state, and derive the same failure view:
 * <ul>
 *   <li>a server is <b>failed</b> when a run of it at least as late as every run known to have connected was declared
 *       failed. A report about an earlier run than one that came up since is stale and changes nothing: the server
 *       rejoined;</li>
 *   <li>a link is <b>cut</b> when it was cut, unless it came up since between later runs of either end (and no
 *       earlier runs of the other). The same two runs reconnecting do not lift a cut: a link that flaps between two
 *       running daemons stays routed around, as before.</li>
 * </ul>
 * Incarnation 0 names a run no connection ever came up with (a neighbour declared failed before its link ever came
 * up): any real run is later.
 *
 * <p>Not thread-safe: {@link DaemonView} guards it.
 */
final class Membership {

    private static final long NONE = -1;

    /** What a failure report changed. */
    enum Failure {
        /** Nothing: this run, or a later one, was reported failed already. */
        KNOWN,
        /** A live server is out of the view now. */
        OUT,
        /**
         * News of a run that ended, but a later run of the server has connected since: the server stays in the view,
         * and whatever the ended run was doing must still be redone (and the daemons that take it for failed must
         * learn of the later run).
         */
        LATER_RUN_LIVE
    }

    private final TorusShape shape;
    /** Per server, the latest run declared failed, or {@link #NONE}. */
    private final long[] failedAt;
    /** Per server, the latest run known to have connected to a neighbour (its own, for this daemon). */
    private final long[] aliveAt;
    /** Per link (ends ascending), the latest runs it was cut between. */
    private final Map<Long, LinkRuns> cuts = new HashMap<>();
    /** Per link (ends ascending), the latest runs it came up between, as far as they were heard. */
    private final Map<Long, LinkRuns> ups = new HashMap<>();

    Membership(TorusShape shape, int self, long selfIncarnation) {
        this.shape = shape;
        this.failedAt = new long[shape.size()];
        this.aliveAt = new long[shape.size()];
        Arrays.fill(failedAt, NONE);
        aliveAt[self] = selfIncarnation;
    }

    boolean isFailed(int s) {
        return failedAt[s] != NONE && failedAt[s] >= aliveAt[s];
    }

    boolean isCut(int a, int b) {
        LinkRuns cut = cuts.get(key(a, b));
        // Only the link itself coming up lifts its cut: a restarted end that has not reconnected across it yet may
        // still be behind a broken cable.
        return cut != null && !cameUpAfter(cut);
    }

    /** Run {@code r} was declared failed. */
    Failure failed(ServerRun r) {
        int s = r.server();
        if (r.incarnation() <= failedAt[s]) {
            return Failure.KNOWN;
        }
        boolean was = isFailed(s);
        failedAt[s] = r.incarnation();
        return isFailed(s) ? (was ? Failure.KNOWN : Failure.OUT) : Failure.LATER_RUN_LIVE;
    }

    /**
     * The records of the links on which a run of {@code r}'s server later than {@code r} connected (at most one per
     * link of the server): what shows a daemon that took {@code r}'s end for news that the server is back.
     */
    List<LinkRuns> upsAfter(ServerRun r) {
        int s = r.server();
        return ups.values().stream().filter(u -> (u.a() == s ? u.aIncarnation() : u.b() == s ? u.bIncarnation() : 0)
                > r.incarnation()).toList();
    }

    /** Whether the cut of {@code link} names a later run of either end than any cut of that link known here. */
    boolean isLaterCut(LinkRuns link) {
        LinkRuns l = link.ordered();
        LinkRuns known = cuts.get(key(l.a(), l.b()));
        return known == null || l.aIncarnation() > known.aIncarnation() || l.bIncarnation() > known.bIncarnation();
    }

    /** The link was cut between these runs. True if this takes the link out of the view. */
    boolean cut(LinkRuns link) {
        LinkRuns l = link.ordered();
        boolean was = isCut(l.a(), l.b());
        cuts.merge(key(l.a(), l.b()), l, Membership::latest);
        return !was && isCut(l.a(), l.b());
    }

    /**
     * The link came up between these runs. True if this brings a failed server or a cut link back into the view (the
     * news is worth passing on).
     */
    boolean up(LinkRuns link) {
        LinkRuns l = link.ordered();
        boolean failedA = isFailed(l.a());
        boolean failedB = isFailed(l.b());
        boolean wasCut = isCut(l.a(), l.b());
        ups.merge(key(l.a(), l.b()), l, Membership::latest);
        aliveAt[l.a()] = Math.max(aliveAt[l.a()], l.aIncarnation());
        aliveAt[l.b()] = Math.max(aliveAt[l.b()], l.bIncarnation());
        return (failedA && !isFailed(l.a())) || (failedB && !isFailed(l.b())) || (wasCut && !isCut(l.a(), l.b()));
    }

    /**
     * Whether the up of {@code link} would tell this daemon of a later run of either end than it knew for that link,
     * where a failure or a cut of it is on record: news that may lift a cut or a failure at a daemon that missed
     * something, even where it changes nothing here.
     */
    boolean isLiftingNews(LinkRuns link) {
        LinkRuns l = link.ordered();
        LinkRuns known = ups.get(key(l.a(), l.b()));
        boolean later = known == null || l.aIncarnation() > known.aIncarnation()
                || l.bIncarnation() > known.bIncarnation();
        return later && (cuts.containsKey(key(l.a(), l.b())) || failedAt[l.a()] != NONE || failedAt[l.b()] != NONE);
    }

    /** {@code base} (the vacant coordinates) with this state's failed servers and cut links. */
    FailureView applyTo(FailureView base) {
        FailureView v = base;
        for (int s = 0; s < shape.size(); s++) {
            if (isFailed(s) && !v.isFailed(s)) {
                v = v.withFailed(shape.coord(s));
            }
        }
        for (LinkRuns c : cuts.values()) {
            if (isCut(c.a(), c.b())) {
                v = v.withCutLink(shape.coord(c.a()), shape.coord(c.b()));
            }
        }
        return v;
    }

    /** Per server, the latest run of its daemon known to have connected (0: none seen yet). */
    long[] knownRuns() {
        return aliveAt.clone();
    }

    /** The latest run of server {@code s} declared failed (a later run may have connected since); -1: none. */
    long declaredRun(int s) {
        return failedAt[s];
    }

    /** The run of server {@code s} declared failed, if it is failed now; else -1. */
    long failedRun(int s) {
        return isFailed(s) ? failedAt[s] : NONE;
    }

    /** Every report worth handing to a daemon that knows nothing: failures, cuts, and the ups that lifted any. */
    List<ServerRun> failures() {
        List<ServerRun> out = new ArrayList<>();
        for (int s = 0; s < shape.size(); s++) {
            if (failedAt[s] != NONE) {
                out.add(new ServerRun(s, failedAt[s]));
            }
        }
        return out;
    }

    List<LinkRuns> cutLinks() {
        return new ArrayList<>(cuts.values());
    }

    /** Ups of links that were cut, and of links to servers that were declared failed: the ones that lift something. */
    List<LinkRuns> liftingUps() {
        List<LinkRuns> out = new ArrayList<>();
        for (LinkRuns u : ups.values()) {
            if (cuts.containsKey(key(u.a(), u.b())) || failedAt[u.a()] != NONE || failedAt[u.b()] != NONE) {
                out.add(u);
            }
        }
        return out;
    }

    private boolean cameUpAfter(LinkRuns cut) {
        LinkRuns up = ups.get(key(cut.a(), cut.b()));
        return up != null && up.aIncarnation() >= cut.aIncarnation() && up.bIncarnation() >= cut.bIncarnation()
                && (up.aIncarnation() > cut.aIncarnation() || up.bIncarnation() > cut.bIncarnation());
    }

    /** The later of two records of one link, end by end (a run's incarnation only grows). */
    private static LinkRuns latest(LinkRuns x, LinkRuns y) {
        return new LinkRuns(x.a(), Math.max(x.aIncarnation(), y.aIncarnation()), x.b(),
                Math.max(x.bIncarnation(), y.bIncarnation()));
    }

    private long key(int a, int b) {
        return (long) Math.min(a, b) * shape.size() + Math.max(a, b);
    }
}
