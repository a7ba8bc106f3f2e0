package org.camdoop.shuffle.service;

import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.camdoop.shuffle.protocol.MissingMapAttempts;
import org.camdoop.shuffle.protocol.ShuffleGeneration;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.protocol.StreamItem;
import org.camdoop.shuffle.service.net.StartProof;
import org.camdoop.shuffle.service.vertex.VertexOutput;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.TorusShape;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The root's side of the shuffles rooted on this daemon, one generation after another (paper section 4.2,
 * docs/recovery.md): starts the first; when a server the running generation may have used failed, replaces it by the
 * next, which resumes after the last key the reducer holds; and when map outputs died with that server, pauses the
 * shuffle instead, until the reduce task names the new attempts of those maps, then resumes it with them.
 *
 * <p>Thread-safety: a {@link RootedShuffles.Rooted}'s monitor is held while its generation changes, so the changes of
 * one shuffle never interleave; different shuffles change independently.
 */
final class RootGenerations {

    private static final Logger LOG = LoggerFactory.getLogger(RootGenerations.class);

    /** What a generation needs from the rest of the service. */
    interface Launch {
        /**
         * Spreads the job's spec, sends {@code spec}'s START to every live peer, and runs this daemon's part, whose
         * root vertex writes to {@code rootOutput} (null for a repair generation, which has none).
         */
        void launch(ShuffleSpec spec, VertexOutput rootOutput);

        /** Stops generation {@code spec} here and on every daemon, with the reason. */
        void abort(ShuffleSpec spec, String reason);

        /**
         * Asks {@code servers} again which map outputs of {@code spec} they hold: sends START again, with the reduce
         * task's {@code proof} (they answer every START they accept).
         */
        void askReports(ShuffleSpec spec, StartProof proof, java.util.Set<Integer> servers);

        /** The root vertex of generation {@code spec} running here, if it does. */
        Optional<org.camdoop.shuffle.service.vertex.Vertex> rootVertex(ShuffleSpec spec);
    }

    private final ServiceContext context;
    private final TorusShape shape;
    private final DaemonView views;
    private final RecentShuffles recent;
    private final RootedShuffles rooted;
    private final DaemonCounters counters;
    private final Launch launch;
    private final ReportRules reports;
    private final TreeRepairs repairs;
    private final ReportWaits waits;
    private final List<Consumer<ShuffleSpec>> restartListeners = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final List<Consumer<ShuffleSpec>> pauseListeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    RootGenerations(ServiceContext context, DaemonView views, RecentShuffles recent, RootedShuffles rooted,
            DaemonCounters counters, Launch launch) {
        this.context = context;
        this.shape = context.node().shape();
        this.views = views;
        this.recent = recent;
        this.rooted = rooted;
        this.counters = counters;
        this.launch = launch;
        this.reports = new ReportRules(views, shape);
        this.waits = new ReportWaits(context, views, rooted, reports, launch, this::next, this::pause);
        this.repairs = new TreeRepairs(context, views, rooted, counters, this::launchRepair, launch::rootVertex,
                this::restartWhole, launch::abort);
    }

    /** The tree repairs of the shuffles rooted here. */
    TreeRepairs repairs() {
        return repairs;
    }

    void onRestart(Consumer<ShuffleSpec> listener) {
        restartListeners.add(listener);
    }

    void onPause(Consumer<ShuffleSpec> listener) {
        pauseListeners.add(listener);
    }

    /** Starts a shuffle's first generation, planned on this daemon's view, and returns the reducer's stream. */
    RootStream start(ShuffleSpec requested, StartProof proof) {
        long[] known = views.knownRuns(); // before planning: a run that connects later may have received START
        // Every daemon plans with the failure view the root started on (carried in START), not with its own.
        ShuffleSpec spec = requested.withGeneration(views.firstGeneration());
        RootStream root = new RootStream(context.rootCapacity());
        RootedShuffles.Rooted r = new RootedShuffles.Rooted(root, proof, spec, output(root, spec), known);
        LOG.info("starting shuffle {}", spec.describe());
        counters.rootStarted();
        synchronized (r) {
            // Before START goes out, so that the HELD reports it draws find the shuffle; under its monitor, so that a
            // failure declared meanwhile replaces the generation only once it runs.
            rooted.add(r);
            try {
                run(r);
            } catch (RuntimeException e) {
                // The task is refused: nobody would read or abort this shuffle.
                rooted.remove(spec);
                root.fail("shuffle " + spec.describe() + " could not start: " + e);
                launch.abort(spec, "its root could not start it: " + e);
                throw e;
            }
            // A server declared failed after the plan and before the shuffle was registered found nothing to replace:
            // its failure is taken in now (a report of it that comes too changes nothing then).
            views.failedSince(spec.generation()).forEach(f -> replace(r, shape.coord(f.server()), f.incarnation()));
        }
        return root;
    }

    /**
     * Run {@code run} of a daemon holds map outputs of a shuffle rooted here (HELD): remembered, if about its running
     * generation (a paused shuffle's attempt set may already have changed under the same stream key; the next
     * generation's START draws the reports anew) and from a run that has not ended.
     */
    void held(Coord from, long streamKey, int partition, int[] indices, long run) {
        RootedShuffles.Rooted r = rooted.current(streamKey, partition);
        if (r != null) {
            synchronized (r) {
                int s = shape.index(from);
                if (rooted.get(r.spec) == r && !r.stream.finished() && r.spec.streamKey() == streamKey
                        && r.pausedFor == null && reports.fromLiveRun(r, s, run)) {
                    r.locations.held(s, run, r.spec.expectedAttempts(), indices);
                    if (r.awaitingReports != null && r.awaitingReports.remove(s)) {
                        waits.decideOnReports(r, "a server failed before its report");
                    } else if (r.awaitingReports == null) {
                        pauseIfHeldByNone(r);
                    }
                }
            }
        }
    }

    /**
     * Once every live server the running generation started on has reported, the map outputs none of them holds will
     * not be read. If a server is out of the view, they were most likely on it (it failed before the shuffle started,
     * or died with its report on the way): the shuffle pauses for their maps' new attempts now, instead of finding
     * them missing at its end, which fails the attempt. With every server live, the outputs were never handed to a
     * daemon (a map whose collector fell back to Hadoop's): the end check fails the attempt, naming them, and its retry
     * may take the stock shuffle, which serves them. So it pauses once per shuffle at most: a re-run that again no live
     * server holds (it ran where the daemon is out, or fell back) fails the same way rather than pause after pause. If
     * a server the generation was planned without is back, it may hold them: the next generation, planned on the view
     * of now, reads it, and its reports decide.
     */
    private void pauseIfHeldByNone(RootedShuffles.Rooted r) {
        if (!(r.output instanceof GenerationOutput out) || r.pausedForUnheld
                || !reports.silentServers(r).isEmpty()) {
            return; // an unknown job, or between generations; paused so once already; a report to come
        }
        org.camdoop.torus.topology.FailureView view = views.current();
        int[] plannedWithout = r.spec.generation().failed();
        SortedSet<String> lost = r.locations.heldByNone(r.spec.expectedAttempts(),
                s -> view.isLive(s) && java.util.Arrays.stream(plannedWithout).noneMatch(f -> f == s));
        boolean back = java.util.Arrays.stream(plannedWithout).anyMatch(view::isLive);
        if (lost.isEmpty() || (!back && java.util.stream.IntStream.range(0, shape.size()).noneMatch(view::isFailed))) {
            return;
        }
        ShuffleSpec old = r.spec;
        GenerationOutput.ResumePoint at = detach(r, out);
        if (at == null) {
            return;
        }
        String why = whyNotResumable(old, at);
        abortRunning(r, why != null ? "no live server holds map outputs of it, and it cannot go on"
                : back ? "servers it was planned without are back: generation " + (old.generation().number() + 1)
                + " takes over" : "no live server holds map outputs of it: the shuffle waits for new attempts of"
                + " their maps");
        if (why != null) {
            rooted.remove(old);
            r.stream.fail("shuffle " + old.describe() + " cannot read map outputs no live server holds, and cannot"
                    + " go on: " + why + "; " + MissingMapAttempts.describe(lost));
        } else if (back) {
            LOG.info("no live server reported map outputs {} of shuffle {}, and servers it was planned without are"
                    + " back: restarting it on them", lost, old.describe());
            next(r, old, at.lastKey());
        } else {
            r.pausedForUnheld = true;
            pause(r, at.lastKey(), lost, "every live server reported, none holds them, and servers are out of the"
                    + " view");
        }
    }

    /**
     * Run {@code incarnation} of server {@code failed} ended: every shuffle rooted here whose running generation may
     * have had vertices on it goes on with the next generation, or pauses for the map outputs that died with it.
     */
    void serverFailed(Coord failed, long incarnation) {
        for (RootedShuffles.Rooted r : rooted.all()) {
            replace(r, failed, incarnation);
        }
    }

    private void replace(RootedShuffles.Rooted r, Coord failed, long incarnation) {
        synchronized (r) {
            ShuffleSpec old = r.spec;
            if (rooted.get(old) != r) {
                return; // finished meanwhile
            }
            if (r.stream.finished()) {
                // Its end (or failure) reached the reducer's queue before the root vertex's finish was recorded:
                // nothing is left to redo, and nobody would read another generation.
                rooted.remove(old);
                return;
            }
            int s = shape.index(failed);
            if (r.pausedFor != null) {
                r.lostWhilePaused.addAll(reports.lostWith(r, s, incarnation));
                return; // nothing runs: the resume plans on the view of then
            }
            if (r.awaitingReports != null) {
                if (r.mayHaveRunOn(s, incarnation) && !r.locations.reportedAfter(s, incarnation)) {
                    // What it reported died with it (a later run holds none of an ended run's outputs).
                    r.locations.forget(r.locations.heldBy(s, old.expectedAttempts()));
                    if (reports.awaitLaterRun(r, s, incarnation)) {
                        // Now, not at the next round of asking, which may be 8 s away.
                        launch.askReports(r.spec, r.proof, java.util.Set.of(s));
                    }
                    waits.decideOnReports(r, "servers failed before their reports");
                }
                return;
            }
            if (!(r.output instanceof GenerationOutput out) || !r.mayHaveRunOn(s, incarnation)) {
                // An unknown job whose root vertex failed already; or planned without the server (its failure was
                // known), or with a later run of it (rejoined); or repaired already.
                return;
            }
            SortedSet<String> lost = reports.lostWith(r, s, incarnation);
            if (repairs.tryRepair(r, s, incarnation, lost)) {
                return; // only the trees it touched are rebuilt
            }
            GenerationOutput.ResumePoint at = detach(r, out);
            if (at == null) {
                return;
            }
            // A run that died before its report of this generation may have held outputs it did not report: with
            // nothing delivered yet, the root can still learn which from what every live server reports (exact only
            // while nothing was).
            boolean unreported = !r.locations.reportedBy(s, incarnation) && at.lastKey().isEmpty();
            String why = whyNotResumable(old, at);
            abortRunning(r, "server " + failed + " failed: " + (unreported ? "the root asks which map outputs died"
                    + " with it" : lost.isEmpty() ? "generation " + (old.generation().number() + 1) + " takes over"
                    : "the shuffle waits for new attempts of the maps whose outputs died with it"));
            if (why != null) {
                rooted.remove(old);
                // Name the outputs that died with it too, so that the reduce task reports them lost.
                r.stream.fail("shuffle " + old.describe() + " lost server " + failed + " and cannot go on: " + why
                        + (lost.isEmpty() ? "" : "; " + MissingMapAttempts.describe(lost)));
                return;
            }
            if (unreported) {
                waits.awaitReports(r, failed, incarnation);
                return;
            }
            if (!lost.isEmpty()) {
                pause(r, at.lastKey(), lost, "server " + failed + " failed");
                return;
            }
            LOG.info("server {} failed: restarting shuffle {} ({} bytes had reached the reducer)", failed,
                    old.describe(), r.stream.bytesDelivered());
            next(r, old, at.lastKey());
        }
    }

    /**
     * Restarts the whole shuffle after the last key the reducer holds, or fails it if it cannot go on (the caller holds
     * {@code r}'s monitor): where a tree repair cannot be exact.
     */
    private void restartWhole(RootedShuffles.Rooted r, String cause) {
        if (!(r.output instanceof GenerationOutput out)) {
            return;
        }
        ShuffleSpec old = r.spec;
        GenerationOutput.ResumePoint at = detach(r, out);
        if (at == null) {
            return;
        }
        String why = whyNotResumable(old, at);
        abortRunning(r, cause + (why == null ? ": generation " + (old.generation().number() + 1) + " takes over"
                : ", and it cannot go on"));
        if (why != null) {
            rooted.remove(old);
            r.stream.fail("shuffle " + old.describe() + " cannot go on: " + cause + "; " + why);
            return;
        }
        LOG.info("{}: restarting shuffle {} whole ({} bytes had reached the reducer)", cause, old.describe(),
                r.stream.bytesDelivered());
        next(r, old, at.lastKey());
    }

    /** Runs repair generation {@code repair} beside the generation it repairs (the caller holds the monitor). */
    private void launchRepair(RootedShuffles.Rooted r, ShuffleSpec repair) {
        recent.proved(new ShuffleKey(repair.streamKey(), repair.partition()), r.proof);
        restartListeners.forEach(l -> l.accept(repair));
        launch.launch(repair, null);
    }

    /** Aborts the running generation everywhere, and the repair generation running beside it, if any. */
    private void abortRunning(RootedShuffles.Rooted r, String reason) {
        ShuffleSpec repair = r.repair;
        r.repair = null; // first: its abort coming back here (repairAborted) must find nothing to do
        r.cuts = null;
        launch.abort(r.spec, reason);
        if (repair != null) {
            launch.abort(repair, reason);
        }
    }

    /**
     * Detaches the running generation's output from the reducer's stream, at the end of the last whole key group
     * delivered; null if the root vertex ended the stream just before (a check made earlier came too early to see it):
     * its last key group went whole, nothing is redone, and the shuffle is done here.
     */
    private GenerationOutput.ResumePoint detach(RootedShuffles.Rooted r, GenerationOutput out) {
        GenerationOutput.ResumePoint at = out.detach();
        if (r.stream.finished()) {
            rooted.remove(r.spec);
            return null;
        }
        return at;
    }

    /** Why the shuffle cannot go on after {@code at} with a generation after {@code old}'s; null if it can. */
    private static String whyNotResumable(ShuffleSpec old, GenerationOutput.ResumePoint at) {
        return at.whyNotResumable(old.generation().number() + 1 >= ShuffleGeneration.MAX_GENERATIONS,
                ShuffleGeneration.MAX_GENERATIONS, CamdoopService.MAX_HELD_GROUP_BYTES);
    }

    /** Holds the shuffle, its generation aborted, until the reduce task names new attempts of {@code lost}. */
    private void pause(RootedShuffles.Rooted r, Optional<byte[]> after, SortedSet<String> lost, String cause) {
        r.pausedFor = lost;
        r.pausedAfter = after;
        r.output = null;
        r.locations.forget(lost);
        if (!r.stream.pause(new StreamItem.Paused(List.copyOf(lost), new byte[0], 0))) {
            rooted.remove(r.spec); // the stream had ended or failed: nobody will resume it
            return;
        }
        counters.paused();
        pauseListeners.forEach(l -> l.accept(r.spec));
        LOG.info("{}: shuffle {} lost the outputs of map attempts {} and waits for new attempts of those maps ({}"
                + " bytes had reached the reducer)", cause, r.spec.describe(), lost, r.stream.bytesDelivered());
    }

    /**
     * Resumes a paused shuffle (named by any generation's spec) with {@code replacements}, a new attempt of each map
     * whose output it lost, and the reduce task's proof over the new set of attempts.
     *
     * @return null once resumed (or paused again for outputs lost meanwhile), else why it cannot be
     */
    String resume(ShuffleSpec shuffle, SortedMap<String, String> replacements, StartProof proof) {
        RootedShuffles.Rooted r = rooted.get(shuffle);
        if (r == null) {
            return "shuffle " + shuffle.describe() + " does not run here";
        }
        synchronized (r) {
            if (rooted.get(r.spec) != r || r.stream.finished()) {
                return "shuffle " + r.spec.describe() + " no longer runs here"; // aborted, or this daemon excluded
            }
            if (r.pausedFor == null) {
                return "shuffle " + r.spec.describe() + " is not paused";
            }
            if (!replacements.keySet().equals(r.pausedFor)) {
                return "shuffle " + r.spec.describe() + " waits for new attempts of " + r.pausedFor + ", not of "
                        + replacements.keySet();
            }
            SortedSet<String> attempts = r.spec.attemptsReplacing(replacements);
            if (attempts.size() != r.spec.expectedAttempts().size()) {
                return "new map attempts " + replacements.values() + " repeat attempts shuffle " + r.spec.describe()
                        + " already reads";
            }
            r.proof = proof;
            r.spec = r.spec.withAttempts(attempts);
            r.pausedFor = null;
            SortedSet<String> more = new TreeSet<>(r.lostWhilePaused);
            r.lostWhilePaused.clear();
            more.retainAll(attempts);
            if (!more.isEmpty()) {
                pause(r, r.pausedAfter, more, "while it waited, more servers failed");
                return null;
            }
            LOG.info("resuming shuffle {} with map attempts {} in place of {}", r.spec.describe(),
                    replacements.values(), replacements.keySet());
            next(r, r.spec, r.pausedAfter);
            return null;
        }
    }

    /** Runs the generation after {@code old}'s, planned on the view of now, resuming after {@code after}. */
    private void next(RootedShuffles.Rooted r, ShuffleSpec old, Optional<byte[]> after) {
        r.plannedWith = views.knownRuns();
        // Numbered after a repair generation too (aborted with the one it repaired), whose stream key it must not take.
        ShuffleSpec last = r.lastRepair != null ? r.lastRepair : old;
        r.repair = null;
        r.lastRepair = null;
        r.cuts = null;
        r.repairedServer = -1;
        ShuffleSpec next = old.withGeneration(views.nextGeneration(last.generation(), after));
        r.spec = next;
        r.output = output(r.stream, next);
        LOG.info("shuffle {} runs {}", next.describe(), next.generation());
        counters.restarted();
        restartListeners.forEach(l -> l.accept(next));
        try {
            run(r);
        } catch (RuntimeException e) {
            // E.g. a START too large for one frame once the resume key is in it: no daemon would run the generation.
            rooted.remove(next);
            r.stream.fail("shuffle " + next.describe() + " could not restart: " + e);
            launch.abort(next, "its root could not restart it: " + e);
        }
    }

    /** Sends the current generation's START and runs it here (the caller holds {@code r}'s monitor). */
    private void run(RootedShuffles.Rooted r) {
        ShuffleSpec spec = r.spec;
        recent.proved(new ShuffleKey(spec.streamKey(), spec.partition()), r.proof);
        r.locations.held(context.node().index(), context.node().incarnation(), spec.expectedAttempts(),
                MapOutputLocations.indicesHeld(context.catalog(), spec));
        launch.launch(spec, r.output);
    }

    private VertexOutput output(RootStream stream, ShuffleSpec spec) {
        return GenerationOutput.of(stream, context.specs().forJob(spec.jobId()), spec, shape,
                CamdoopService.MAX_HELD_GROUP_BYTES);
    }
}
