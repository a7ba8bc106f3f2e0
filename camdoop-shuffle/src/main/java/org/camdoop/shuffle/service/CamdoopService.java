package org.camdoop.shuffle.service;

import io.netty.buffer.Unpooled;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.service.net.CutMessages;
import org.camdoop.shuffle.service.net.MembershipMessages.ServerRun;
import org.camdoop.shuffle.service.net.ShuffleMessages;
import org.camdoop.shuffle.service.net.SpecMessages;
import org.camdoop.shuffle.service.net.StartProof;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.TorusNode;
import org.camdoop.torus.transport.wire.StreamId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Camdoop service on one daemon. The reduce task's daemon calls {@link #startShuffle}: it tells every other live
 * daemon (a START service message) and runs its own part; every daemon derives from the spec alone which vertices it
 * hosts, opens their streams, and starts them on its local map outputs. Vertices run on the context's executor; this
 * class only sets them up and tears them down.
 *
 * <p>Before START, the root broadcasts the job's spec and jars along a spanning tree ({@link SpecBroadcast}), so
 * daemons that ran no task of the job learn it. START goes straight to each daemon and may overtake the spec: a daemon
 * that does not know the job yet parks the START ({@link ParkedStarts}) until the spec is registered, refused, or
 * {@link ServiceContext#specWaitMs()} runs out, and then runs or fails its vertices.
 *
 * <p>Thread-safety: {@code running} is thread-safe ({@link RunningShuffles}); the failure view is {@link DaemonView}.
 * Service messages arrive on the transport's event loop and are handed to the vertex executor at once
 * ({@link ServiceInbox}).
 */
public final class CamdoopService {

    private static final Logger LOG = LoggerFactory.getLogger(CamdoopService.class);
    /** The largest key group a root holds back whole so that a restart resumes exactly (GenerationOutput). */
    static final int MAX_HELD_GROUP_BYTES = 8 << 20;

    /** Aborted shuffles, STARTs taken and roots' proofs, remembered for a while. */
    private final RecentShuffles recent = new RecentShuffles();
    /** Whether a START from a peer may run here (set by the daemon: job token checks). */
    private volatile StartProof.Check startCheck = StartProof.Check.ACCEPT_ALL;

    private final ServiceContext context;
    private final TorusNode node;
    private final TorusShape shape;
    private final RunningShuffles running = new RunningShuffles();
    private final RootedShuffles rooted = new RootedShuffles();
    private final RootGenerations roots;
    /** Why the other daemons no longer count this one ({@link #excluded}); null while they do. */
    private volatile String exclusion;
    /** {@link #halt} was called: this daemon plays dead. */
    private volatile boolean halted;
    private final SpecBroadcast broadcast;
    private final ParkedStarts parked;
    private final StartAcks startAcks;
    private final LocalShuffles local;
    private final ParentCuts parentCuts;
    private final DaemonView views;
    private final ServiceInbox inbox;
    private final DaemonCounters counters = new DaemonCounters();

    public CamdoopService(ServiceContext context) {
        this.context = context;
        this.node = context.node();
        this.shape = node.shape();
        this.views = new DaemonView(node, context.initialView(), counters);
        this.local = new LocalShuffles(context, views, recent, running, counters,
                (spec, reason) -> abort(spec.streamKey(), spec.partition(), reason, true), rooted::finished,
                this::rootFailed, this::repairFailed);
        this.broadcast = new SpecBroadcast(node, views::current, context.distribution(), context.specWaitMs(),
                new SpecBroadcast.Listener() {
                    @Override
                    public void known(String jobId) {
                        parked.release(jobId).forEach(spec -> local.run(spec, Optional.empty(), unknownJob(spec)));
                    }

                    @Override
                    public void refused(String jobId, String reason) {
                        String why = "daemon " + node.coord() + " refused the spec of " + jobId + ": " + reason;
                        parked.release(jobId).forEach(spec -> local.run(spec, Optional.empty(), why));
                    }
                });
        this.parked = new ParkedStarts(context.timer(), context.specWaitMs(),
                spec -> broadcast.request(spec.jobId(), spec.root()),
                (spec, waitMs) -> context.vertices().execute(() -> local.run(spec, Optional.empty(),
                        "daemon " + node.coord() + " did not receive the spec of " + spec.jobId() + " within "
                                + waitMs + " ms")));
        this.startAcks = new StartAcks(context.timer(), context.vertices(), context.specWaitMs(), System::nanoTime,
                (spec, server) -> sendStart(spec, server),
                this::startUnanswered);
        this.roots = new RootGenerations(context, views, recent, rooted, counters, new RootLaunch(node, views, running,
                broadcast, local, this::startOnPeers, this::unknownJob,
                (spec, reason) -> abort(spec.streamKey(), spec.partition(), reason, true)));
        this.parentCuts = new ParentCuts(context, running, recent, run -> serverDown(run, false));
        this.inbox = new ServiceInbox(node, context.vertices(), context.limits().maxPendingMessages(), this::handle);
        node.setServiceHandler(inbox::onMessage);
        // Last: failures this daemon's transport declares from now on come here; links up already are taken in.
        views.start(run -> serverDown(run, true));
    }

    /** Failed and vacant servers as this daemon knows them. */
    public FailureView view() {
        return views.current();
    }

    /** Completes with this daemon's failure view once it satisfies {@code condition} (at once if it does now). */
    public CompletableFuture<FailureView> whenView(java.util.function.Predicate<FailureView> condition) {
        return views.when(condition);
    }

    /** This daemon's part of the job spec broadcast. */
    public SpecBroadcast specBroadcast() {
        return broadcast;
    }

    /** START messages waiting here for the spec of their job. */
    public int parkedStarts() {
        return parked.size();
    }

    /** Completes once no START waits here for its spec (at once if none does): released, cancelled or timed out. */
    public CompletableFuture<Void> whenNoParkedStarts() {
        return parked.whenEmpty();
    }

    /** The job ended or expired on this daemon: forget its broadcast state. */
    public void forgetJob(String jobId) {
        broadcast.forget(jobId);
    }

    /** Running totals since the daemon started (for metrics). */
    public DaemonCounters counters() {
        return counters;
    }

    /**
     * Calls {@code listener} (on a vertex thread, or the thread of the reduce task's connection for a resume: keep it
     * short) with each restart's new generation before it runs.
     */
    public void onRestart(Consumer<ShuffleSpec> listener) {
        roots.onRestart(listener);
    }

    /** Calls {@code listener} (on a vertex thread: keep it short) with each shuffle paused for lost map outputs. */
    public void onPause(Consumer<ShuffleSpec> listener) {
        roots.onPause(listener);
    }

    /** This daemon's membership: the runs it knows connected and declared failed (tests in this package). */
    DaemonView views() {
        return views;
    }

    /** Shuffles with vertices still running here. */
    public int runningShuffles() {
        return running.size();
    }

    /**
     * The shuffles running here, and those rooted here that wait, paused, for lost map outputs' new attempts: at most
     * {@code max} of them, by job and partition.
     */
    public List<ShuffleStatus> shuffles(int max) {
        List<ShuffleStatus> all = new java.util.ArrayList<>(running.statuses(max));
        all.addAll(rooted.paused());
        all.sort(java.util.Comparator.comparing(ShuffleStatus::jobId).thenComparing(ShuffleStatus::partition));
        return all.subList(0, Math.min(max, all.size()));
    }

    /**
     * Completes once no shuffle runs here (at once if none does): every vertex finished and every output stream was
     * acknowledged or closed. For callers that wait for a daemon to settle (tests, an orderly stop).
     */
    public CompletableFuture<Void> whenIdle() {
        return running.whenIdle();
    }

    /** As {@link #startShuffle(ShuffleSpec, StartProof)} without a proof (a shuffle started in process). */
    public RootStream startShuffle(ShuffleSpec spec) {
        return startShuffle(spec, StartProof.NONE);
    }

    /** Sets the check every START from a peer passes before it runs here (job token proofs). */
    public void checkStartsWith(StartProof.Check check) {
        this.startCheck = check;
    }

    /**
     * Starts a shuffle whose root is this server, forwarding {@code proof} (what the reduce task proved to this
     * daemon) in every START, so daemons that hold the job's token can check it.
     *
     * @return the merged stream for the reduce task
     * @throws IllegalArgumentException if the spec's root is not this server
     */
    public RootStream startShuffle(ShuffleSpec requested, StartProof proof) {
        if (!requested.root().equals(node.coord())) {
            throw new IllegalArgumentException("shuffle " + requested.describe() + " must start on its root, not on "
                    + node.coord());
        }
        if (exclusion != null) {
            RootStream refused = new RootStream(1);
            refused.fail(exclusion);
            return refused;
        }
        return roots.start(requested, proof);
    }

    /**
     * Resumes a shuffle rooted here that paused for lost map outputs ({@link RootStream#pause}): {@code replacements}
     * names the new attempt of each lost one, {@code proof} is the reduce task's proof over the new set of attempts.
     *
     * @return null once resumed, else why it cannot be (the shuffle stays as it was)
     */
    public String resume(ShuffleSpec shuffle, java.util.SortedMap<String, String> replacements, StartProof proof) {
        return roots.resume(shuffle, replacements, proof);
    }

    /** The current generation of the shuffle rooted here that {@code shuffle} belongs to, if one is. */
    public Optional<ShuffleSpec> rootedNow(ShuffleSpec shuffle) {
        return rooted.current(shuffle);
    }

    /**
     * A run of a server failed: reported by this daemon's transport ({@code detectedHere}), by a neighbour of it
     * (SERVER_DOWN, VIEW) or in a START. Unless old news, takes it into the view (a later run that connected since
     * stays in), tells every daemon if detected here, drops the shuffles that run rooted and restarts the ones rooted
     * here (paper section 4.2). On the event loop or a vertex thread; the shuffles' part runs on a vertex thread.
     */
    private void serverDown(ServerRun run, boolean detectedHere) {
        if (halted) {
            return;
        }
        if (run.server() == node.index()) { // unless it names an earlier run of this daemon: this one rejoined since
            if (run.incarnation() >= node.incarnation()) {
                excluded("its neighbours declared it failed (one of its links stayed down for the failure timeout)");
            }
            return;
        }
        if (views.markFailed(run) == Membership.Failure.KNOWN) {
            return; // no news: this run, or a later one, was reported failed already
        }
        if (detectedHere) {
            counters.failureDeclared();
            views.tellFailed(run);
        }
        context.vertices().execute(() -> shufflesLost(shape.coord(run.server()), run.incarnation()));
    }

    /**
     * Run {@code incarnation} of server {@code failed} is gone: the shuffles it rooted stop here (not those a later run
     * roots), the ones rooted here restart.
     */
    private void shufflesLost(Coord failed, long incarnation) {
        if (halted) {
            return;
        }
        for (ShuffleKey key : running.rootedBy(failed, incarnation)) {
            // Its reduce task died with the server: Hadoop runs a new attempt, which roots a new shuffle.
            abort(key.streamKey(), key.partition(), "server " + failed + ", the root, failed", false);
        }
        roots.serverFailed(failed, incarnation);
    }

    /** A generation's root vertex failed here: the shuffle stops everywhere, and a repair running beside it. */
    private void rootFailed(ShuffleSpec spec, String reason) {
        abort(spec.streamKey(), spec.partition(), reason, true);
        roots.repairs().rootFailed(spec, reason);
    }

    private void repairFailed(ShuffleSpec repair, String reason) {
        roots.repairs().repairFailed(repair, reason);
    }

    /** Daemons did not acknowledge {@code spec}'s START: it fails everywhere (a repair: the shuffle restarts whole). */
    private void startUnanswered(ShuffleSpec spec, java.util.Set<Integer> silent) {
        String why = "daemons " + silent.stream().map(shape::coord).toList() + " did not answer the start of "
                + spec.describe() + " within " + context.specWaitMs() + " ms";
        if (spec.generation().repair().isPresent()) {
            abort(spec.streamKey(), spec.partition(), why, true);
            repairFailed(spec, why);
        } else {
            abort(spec, why, true);
        }
    }

    /** Sends START to every live peer, and again to whoever has not acknowledged it (service messages: best effort). */
    private void startOnPeers(ShuffleSpec spec) {
        startAcks.send(spec, views.livePeers());
    }

    /**
     * The other daemons took this run of the daemon for failed: they route around it and plan without it until a new
     * run rejoins (a restart), so the shuffles rooted here, now and later, cannot finish. They fail with the reason.
     */
    private void excluded(String why) {
        if (exclusion == null) {
            LOG.warn("this server ({}) is out of the torus: {}; the shuffles rooted here fail; restart this daemon to"
                    + " rejoin", node.coord(), why);
        }
        exclusion = "server " + node.coord() + " is out of the torus: " + why;
        for (RootedShuffles.Rooted r : rooted.all()) {
            r.stream.fail(exclusion); // first: the reducer learns this reason, not the abort's
            abort(r.spec, exclusion, false);
        }
    }

    /**
     * Stops every shuffle here at once, telling no other daemon, as a crashed process would; the reducers of the
     * shuffles rooted here learn {@code reason}. Later service messages are dropped. For {@code EmbeddedTorus.crash}.
     */
    public void halt(String reason) {
        halted = true;
        inbox.close();
        for (RootedShuffles.Rooted r : rooted.all()) {
            rooted.remove(r.spec);
            r.stream.fail(reason);
        }
        for (ShuffleKey key : running.keys()) {
            abort(key.streamKey(), key.partition(), reason, false);
        }
    }

    /**
     * Stops this daemon's vertices of a shuffle (and tells the others when {@code broadcast}); on its root, whatever
     * generation of it runs now.
     */
    public void abort(ShuffleSpec spec, String reason, boolean broadcast) {
        RootedShuffles.Rooted r = rooted.remove(spec);
        if (r != null) {
            synchronized (r) {
                if (r.waiting()) {
                    r.stream.fail(reason); // no root vertex runs to fail it: tell the reducer here
                }
                abort(r.spec.streamKey(), r.spec.partition(), reason, broadcast);
                if (r.repair != null) {
                    abort(r.repair.streamKey(), r.repair.partition(), reason, broadcast);
                }
            }
        } else {
            abort(spec.streamKey(), spec.partition(), reason, broadcast);
        }
    }

    private void abort(long streamKey, int partition, String reason, boolean broadcast) {
        ShuffleKey key = new ShuffleKey(streamKey, partition);
        recent.aborted(key, reason);
        startAcks.forget(streamKey, partition);
        parked.cancel(streamKey, partition);
        RunningShuffle r = running.remove(key);
        if (r != null) {
            counters.aborted();
            local.stop(r.abort(), "aborted: " + reason);
        }
        if (broadcast) {
            StreamId control = new StreamId(streamKey, partition, ControlTrees.CONTROL, node.index());
            views.tellLivePeers(control, ShuffleMessages.abort(streamKey, partition, reason));
        }
    }

    private void sendStart(ShuffleSpec spec, int server) {
        StartProof proof = recent.proofOf(new ShuffleKey(spec.streamKey(), spec.partition()));
        StreamId control = new StreamId(spec.streamKey(), spec.partition(), ControlTrees.CONTROL, node.index());
        node.sendService(shape.coord(server), control, Unpooled.wrappedBuffer(ShuffleMessages.start(spec, proof)));
    }

    private void handle(Coord from, ShuffleMessages.Message m, byte[] bytes) {
        if (views.handle(from, m, run -> serverDown(run, false))) {
            return; // a failure view message
        }
        if (m instanceof ShuffleMessages.Start s) {
            String refusal = startCheck.refusal(s.spec(), s.proof());
            if (refusal != null) {
                // Refused shuffles fail everywhere at once rather than wait for this daemon's streams.
                LOG.warn("START of {} from {} refused: {}", s.spec().describe(), from, refusal);
                counters.startRefused();
                abort(s.spec().streamKey(), s.spec().partition(), "daemon " + node.coord() + " refused its start: "
                        + refusal, true);
                return;
            }
            onStart(s.spec());
        } else if (m instanceof ShuffleMessages.Held h) {
            roots.held(from, h.streamKey(), h.partition(), h.indices(), h.run());
        } else if (m instanceof ShuffleMessages.StartAck ack) {
            startAcks.acknowledged(ack.streamKey(), ack.partition(), shape.index(from));
        } else if (m instanceof CutMessages.Cut c) {
            parentCuts.onCut(from, c);
        } else if (m instanceof CutMessages.CutDone d) {
            roots.repairs().cutAnswered(from, d);
        } else if (m instanceof SpecMessages.Spec spec) {
            broadcast.onSpec(spec, bytes);
        } else if (m instanceof SpecMessages.JarPart part) {
            broadcast.onJarPart(part, bytes);
        } else if (m instanceof SpecMessages.SpecRequest request) {
            broadcast.onSpecRequest(request, from);
        } else if (m instanceof ShuffleMessages.Abort a) {
            abort(a.streamKey(), a.partition(), a.reason() + " (from " + from + ")", false);
            roots.repairs().repairAborted(a.streamKey(), a.partition(), a.reason() + " (from " + from + ")");
        }
    }

    private void onStart(ShuffleSpec spec) {
        // The root's failure view is news to a daemon that has not heard of a failure yet; a later generation
        // supersedes the earlier ones here at once (they may still be waiting for a failed server's streams).
        DaemonView.failedRuns(spec.generation()).forEach(run -> serverDown(run, false));
        // A repair generation supersedes only some trees of the one before it (LocalRepairs), and that one goes on.
        int superseded = spec.generation().number() - (spec.generation().repair().isPresent() ? 1 : 0);
        for (int g = 0; g < superseded; g++) {
            abort(spec.streamKey(g), spec.partition(), "superseded by generation " + spec.generation().number(),
                    false);
        }
        // The root learns where the shuffle's map outputs are and who has reported (none is a report too), from every
        // START accepted, a repeated one too: a root lacking a report asks again so (docs/recovery.md).
        MapOutputLocations.report(node, context.catalog(), spec);
        ShuffleKey key = new ShuffleKey(spec.streamKey(), spec.partition());
        if (!recent.takeStart(key)) {
            return;
        }
        counters.peerStartReceived();
        if (recent.wasAborted(key)) {
            return; // its ABORT overtook it: neither run nor park it
        }
        ParkedStarts.Parking p = parked.park(spec, () -> context.specs().forJob(spec.jobId()).isPresent());
        switch (p) {
            case KNOWN_NOW -> local.run(spec, Optional.empty(), unknownJob(spec));
            case PARKED -> {
                // An ABORT that slipped in between the check above and the parking must still un-park it.
                if (recent.wasAborted(key)) {
                    parked.cancel(spec.streamKey(), spec.partition());
                } else {
                    LOG.debug("shuffle {} waits for the spec of {}", spec.describe(), spec.jobId());
                }
            }
            case FULL -> local.run(spec, Optional.empty(), "daemon " + node.coord()
                    + " does not know job " + spec.jobId() + " and already holds " + ParkedStarts.MAX_PARKED
                    + " starts waiting for their spec");
        }
    }

    private String unknownJob(ShuffleSpec spec) {
        Optional<String> refusal = broadcast.refusal(spec.jobId());
        return refusal.isPresent()
                ? "daemon " + node.coord() + " refused the spec of " + spec.jobId() + ": " + refusal.get()
                : "daemon " + node.coord() + " does not know job " + spec.jobId();
    }
}
