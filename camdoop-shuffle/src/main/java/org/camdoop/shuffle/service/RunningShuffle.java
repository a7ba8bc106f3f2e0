package org.camdoop.shuffle.service;

import java.util.ArrayList;
import java.util.List;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.service.plan.RepairScope;
import org.camdoop.shuffle.service.vertex.Vertex;
import org.camdoop.shuffle.service.vertex.VertexState;
import org.camdoop.torus.transport.stream.InboundStream;
import org.camdoop.torus.transport.stream.OutboundStream;

/**
 * One shuffle's vertices on this daemon and the streams they use, so an abort can stop them all and give their buffers
 * back. Compared by identity (a retried shuffle is a new object). All state is guarded by this object's monitor.
 */
final class RunningShuffle {

    /** What an abort must stop. */
    record Stopped(List<Vertex> vertices, List<InboundStream> inputs, List<OutboundStream> outputs) {
    }

    private final ShuffleSpec spec;
    private final List<Vertex> vertices = new ArrayList<>();
    private final List<InboundStream> inputs = new ArrayList<>();
    private final List<OutboundStream> outputs = new ArrayList<>();
    private int attachedVertices;
    private boolean aborted;
    /**
     * A repair's streams into vertices of the generation it repairs: kept until each of those vertices finished
     * (how many have not).
     */
    private int rebinding;

    RunningShuffle(ShuffleSpec spec) {
        this.spec = spec;
    }

    ShuffleSpec spec() {
        return spec;
    }

    /** Where this daemon's part of the shuffle stands (vertex states as their threads last published them). */
    synchronized ShuffleStatus status() {
        int merging = 0;
        for (Vertex v : vertices) {
            VertexState s = v.state();
            merging += s == VertexState.MERGING || s == VertexState.DRAINING ? 1 : 0;
        }
        return new ShuffleStatus(spec.jobId(), spec.partition(),
                spec.root().x() + "," + spec.root().y() + "," + spec.root().z(), attachedVertices,
                attachedVertices - vertices.size(), merging);
    }

    /**
     * Registers a shuffle's wired part on this daemon, before it starts.
     *
     * @return false, registering nothing, if the shuffle was aborted meanwhile: the caller closes the wiring itself
     */
    synchronized boolean attach(ShuffleWiring wiring) {
        if (aborted) {
            return false;
        }
        vertices.addAll(wiring.allVertices());
        attachedVertices += wiring.allVertices().size();
        inputs.addAll(wiring.inputs());
        outputs.addAll(wiring.outputs());
        rebinding = wiring.reboundInto();
        return true;
    }

    synchronized List<Vertex> vertices() {
        return List.copyOf(vertices);
    }

    /** Marks the shuffle aborted and hands over everything to stop; later {@link #add}s are refused. */
    synchronized Stopped abort() {
        aborted = true;
        Stopped s = new Stopped(List.copyOf(vertices), List.copyOf(inputs), List.copyOf(outputs));
        vertices.clear();
        inputs.clear();
        outputs.clear();
        return s;
    }

    /**
     * Hands over what a tree repair replaces: the vertices of the subtrees it rebuilds and every stream out of them
     * (the parent's input from the failed vertex too: it is rebound, not stopped). The rest runs on.
     */
    synchronized Stopped cutSubtrees(RepairScope scope) {
        List<Vertex> v = vertices.stream().filter(x -> scope.rebuilds(x.plan().tree(), x.plan().vertex())).toList();
        List<InboundStream> in = inputs.stream().filter(x -> scope.rebuilds(x.id().tree(), x.id().vertex())).toList();
        List<OutboundStream> out = outputs.stream().filter(x -> scope.rebuilds(x.id().tree(), x.id().vertex()))
                .toList();
        vertices.removeAll(v);
        inputs.removeAll(in);
        outputs.removeAll(out);
        return new Stopped(v, in, out);
    }

    /** The streams into this daemon's vertices from vertices that {@code server} hosted. */
    synchronized List<InboundStream> inputsFrom(int server) {
        return inputs.stream().filter(x -> x.sender() == server).toList();
    }

    /** Forgets a finished vertex; true when nothing is left to stop (no vertex, no unfinished output stream). */
    synchronized boolean forget(Vertex finished) {
        vertices.remove(finished);
        return idle();
    }

    /** A vertex a repair's streams feed finished; true when nothing is left. */
    synchronized boolean reboundFinished() {
        rebinding--;
        return idle();
    }

    private boolean idle() {
        return vertices.isEmpty() && outputs.isEmpty() && rebinding <= 0;
    }

    /**
     * Forgets an output stream whose end the receiver acknowledged (or that closed); true when nothing is left. Until
     * then an abort must still be able to close it: an END whose receiver died or aborted is never acknowledged.
     */
    synchronized boolean forget(OutboundStream completed) {
        outputs.remove(completed);
        return idle();
    }
}
