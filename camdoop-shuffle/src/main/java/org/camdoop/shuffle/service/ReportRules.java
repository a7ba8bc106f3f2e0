package org.camdoop.shuffle.service;

import java.util.SortedSet;
import java.util.TreeSet;
import org.camdoop.shuffle.service.net.ShuffleMessages;
import org.camdoop.torus.topology.TorusShape;

/**
 * Which run of a server's daemon a root believes about the map outputs it holds (docs/recovery.md, "Which run
 * reported"): which HELD reports count, which servers the root still waits to hear from, and which outputs die with a
 * run. News of an earlier run can arrive late (a daemon that restarted learns the failures it missed from its
 * neighbours, maybe after it planned a shuffle it roots), so every rule compares runs, not servers.
 *
 * <p>Not thread-safe: called under the {@link RootedShuffles.Rooted}'s monitor, for that shuffle's state only.
 */
final class ReportRules {

    private final DaemonView views;
    private final TorusShape shape;

    ReportRules(DaemonView views, TorusShape shape) {
        this.views = views;
        this.shape = shape;
    }

    /**
     * Whether a report comes from a run of its daemon that has not ended: one later than any declared failed here (a
     * late report of an ended run must not place its outputs on a new run of the server), and no earlier than the run
     * whose report the root holds (a late one of the run before, overtaken, must not replace it). A report that does
     * not name its run (an earlier version's) counts while the root waits only if it awaits the server and no failure
     * of the run the generation was planned with, or a later one, was declared (it may be the ended run's).
     */
    boolean fromLiveRun(RootedShuffles.Rooted r, int server, long run) {
        if (run == ShuffleMessages.Held.UNKNOWN_RUN) {
            return r.awaitingReports == null || (r.awaitingReports.contains(server)
                    && views.declaredRun(server) < r.plannedWith[server]);
        }
        return run > views.declaredRun(server) && !r.locations.reportedByLaterRun(server, run);
    }

    /** Every live server the current generation started on that has not reported on it. */
    java.util.Set<Integer> silentServers(RootedShuffles.Rooted r) {
        java.util.Set<Integer> silent = new TreeSet<>();
        int[] plannedWithout = r.spec.generation().failed();
        for (int s = 0; s < shape.size(); s++) {
            int server = s;
            if (views.current().isLive(s) && !r.locations.reported(s)
                    && java.util.Arrays.stream(plannedWithout).noneMatch(f -> f == server)) {
                silent.add(s);
            }
        }
        return silent;
    }

    /**
     * A run of {@code server} that the generation may have used ended without a report that outlives it. If a later
     * run of the server is up (the failure was news of an earlier run: the root may have planned before it heard of
     * the later one, whose daemon then took the START), its report is awaited: it says what the server holds now,
     * whichever run the START reached (asked again, the later run reports). Else the server is awaited no longer.
     *
     * @return whether the server is awaited now and was not before
     */
    boolean awaitLaterRun(RootedShuffles.Rooted r, int server, long run) {
        if (!views.current().isLive(server)) {
            r.awaitingReports.remove(server);
            return false;
        }
        return !r.locations.reportedAfter(server, run) && r.awaitingReports.add(server);
    }

    /**
     * The map outputs of the current generation that died with run {@code run} of {@code server}. Not what a later run
     * of it reported (news of an earlier run can come late: a daemon that restarted learns the failures it missed from
     * its neighbours, maybe after it planned this generation), unless the server is out of this daemon's view: the
     * next generation then cannot read it, whichever run holds them.
     */
    SortedSet<String> lostWith(RootedShuffles.Rooted r, int server, long run) {
        return views.current().isLive(server) ? r.locations.diedWith(server, run, r.spec.expectedAttempts())
                : r.locations.heldBy(server, r.spec.expectedAttempts());
    }
}
