package org.camdoop.shuffle.service;

import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.service.net.StartProof;
import org.camdoop.shuffle.service.vertex.Vertex;
import org.camdoop.shuffle.service.vertex.VertexOutput;
import org.camdoop.torus.transport.TorusNode;

/**
 * What the root's generations ({@link RootGenerations}) do to the rest of the daemon: spread a generation (the job's
 * spec, START to every live peer, this daemon's part), abort one everywhere, ask servers again which map outputs they
 * hold, find a generation's root vertex. Stateless; any thread the root's monitor is held on.
 */
final class RootLaunch implements RootGenerations.Launch {

    private final TorusNode node;
    private final DaemonView views;
    private final RunningShuffles running;
    private final SpecBroadcast broadcast;
    private final LocalShuffles local;
    /** Sends START to every live peer, and again to whoever does not acknowledge it. */
    private final Consumer<ShuffleSpec> startOnPeers;
    /** Why this daemon cannot run a job's vertices (it does not know the job, or refused its spec). */
    private final Function<ShuffleSpec, String> unknownJob;
    /** Stops a generation here and on every daemon, with the reason. */
    private final BiConsumer<ShuffleSpec, String> abort;

    RootLaunch(TorusNode node, DaemonView views, RunningShuffles running, SpecBroadcast broadcast, LocalShuffles local,
            Consumer<ShuffleSpec> startOnPeers, Function<ShuffleSpec, String> unknownJob,
            BiConsumer<ShuffleSpec, String> abort) {
        this.node = node;
        this.views = views;
        this.running = running;
        this.broadcast = broadcast;
        this.local = local;
        this.startOnPeers = startOnPeers;
        this.unknownJob = unknownJob;
        this.abort = abort;
    }

    @Override
    public void launch(ShuffleSpec spec, VertexOutput rootOutput) {
        // Spec first: on each tree path it is queued ahead of START. START may still overtake it on another path;
        // receivers park it (ParkedStarts). A restart spreads it again along a tree of the new view: the first
        // broadcast may have died with the failed server (daemons that have it only forward).
        broadcast.distribute(spec.jobId(), views.current());
        startOnPeers.accept(spec);
        local.run(spec, Optional.ofNullable(rootOutput), unknownJob.apply(spec));
    }

    @Override
    public void abort(ShuffleSpec spec, String reason) {
        abort.accept(spec, reason);
    }

    @Override
    public void askReports(ShuffleSpec spec, StartProof proof, Set<Integer> servers) {
        MapOutputLocations.ask(node, spec, proof, servers);
    }

    @Override
    public Optional<Vertex> rootVertex(ShuffleSpec spec) {
        return running.rootVertex(new ShuffleKey(spec.streamKey(), spec.partition()));
    }
}
