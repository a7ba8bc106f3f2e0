package org.camdoop.shuffle.service;

import java.util.Optional;
import java.util.SortedSet;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.TorusShape;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The root's wait for the reports of which map outputs each server holds, when a server died before its own report
 * came and nothing had reached the reducer (docs/recovery.md, "Lost map outputs"): asks the silent servers again,
 * backing off, and decides once every report came (or the wait is overdue) whether to pause for the outputs no live
 * server holds or restart. Every method runs under the shuffle's monitor, as {@link RootGenerations}' do.
 */
final class ReportWaits {

    private static final Logger LOG = LoggerFactory.getLogger(ReportWaits.class);

    /** Runs the generation after {@code old}'s, resuming after {@code after}. */
    interface Next {
        void run(RootedShuffles.Rooted r, ShuffleSpec old, Optional<byte[]> after);
    }

    /** Holds the shuffle until the reduce task names new attempts of {@code lost}. */
    interface Pause {
        void run(RootedShuffles.Rooted r, Optional<byte[]> after, SortedSet<String> lost, String cause);
    }

    private final ServiceContext context;
    private final TorusShape shape;
    private final DaemonView views;
    private final RootedShuffles rooted;
    private final ReportRules reports;
    private final RootGenerations.Launch launch;
    private final Next next;
    private final Pause pause;

    ReportWaits(ServiceContext context, DaemonView views, RootedShuffles rooted, ReportRules reports,
            RootGenerations.Launch launch, Next next, Pause pause) {
        this.context = context;
        this.shape = context.node().shape();
        this.views = views;
        this.rooted = rooted;
        this.reports = reports;
        this.launch = launch;
        this.next = next;
        this.pause = pause;
    }

    /**
     * Server {@code failed} died before it reported what it held, and nothing had reached the reducer: with the
     * generation aborted, waits for the reports of every other server it was started on (a daemon answers every
     * START with one, so the silent ones are asked again with START, backing off as {@link StartAcks} does), then
     * pauses for the outputs no live server holds, or restarts if there are none. Reports still missing after
     * {@code camdoop.daemon.spec.wait-ms} (a daemon that never answers, or one of a version that reports only once):
     * restarts without knowing, as before reports were awaited; a lost output is then found by the end check.
     */
    void awaitReports(RootedShuffles.Rooted r, Coord failed, long incarnation) {
        r.output = null;
        r.locations.forget(reports.lostWith(r, shape.index(failed), incarnation));
        r.awaitingReports = reports.silentServers(r);
        reports.awaitLaterRun(r, shape.index(failed), incarnation);
        java.util.Set<Integer> waiting = r.awaitingReports;
        LOG.info("server {} failed before it reported which map outputs of shuffle {} it held; waiting for the reports"
                + " of {}", failed, r.spec.describe(), waiting.stream().map(shape::coord).toList());
        if (!decideOnReports(r, "server " + failed + " failed before its report")) {
            askAgainLater(r, r.spec, failed, StartAcks.RETRY_MS, 0);
        }
    }

    /** After {@code intervalMs}: asks the servers whose reports are still missing again, or restarts once overdue. */
    private void askAgainLater(RootedShuffles.Rooted r, ShuffleSpec waitingOn, Coord failed, long intervalMs,
            long waitedMs) {
        context.timer().schedule(() -> context.vertices().execute(() -> {
            synchronized (r) {
                if (rooted.get(r.spec) != r || r.spec != waitingOn || r.awaitingReports == null) {
                    return; // decided, or gone
                }
                long waited = waitedMs + intervalMs;
                if (waited >= context.specWaitMs()) {
                    LOG.warn("shuffle {} lost server {} before it reported which map outputs it held, and servers {}"
                            + " did not report theirs within {} ms: restarting it (an output lost with {} is found"
                            + " at its end)", r.spec.describe(), failed, r.awaitingReports.stream().map(shape::coord)
                            .toList(), waited, failed);
                    r.awaitingReports = null;
                    next.run(r, r.spec, Optional.empty());
                    return;
                }
                launch.askReports(r.spec, r.proof, r.awaitingReports);
                askAgainLater(r, waitingOn, failed, Math.min(StartAcks.MAX_RETRY_MS, intervalMs * 2), waited);
            }
        }), intervalMs, java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    /** Once every awaited report came: pauses for the outputs no live server holds, or restarts. */
    boolean decideOnReports(RootedShuffles.Rooted r, String cause) {
        if (!r.awaitingReports.isEmpty()) {
            return false;
        }
        r.awaitingReports = null;
        SortedSet<String> lost = r.locations.heldByNone(r.spec.expectedAttempts(), s -> views.current().isLive(s));
        if (lost.isEmpty()) {
            LOG.info("{}: every map output of shuffle {} is on a live server; restarting it", cause,
                    r.spec.describe());
            next.run(r, r.spec, Optional.empty());
        } else {
            pause.run(r, Optional.empty(), lost, cause);
        }
        return true;
    }
}
