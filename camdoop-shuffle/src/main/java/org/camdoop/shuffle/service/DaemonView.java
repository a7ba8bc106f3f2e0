package org.camdoop.shuffle.service;

import io.netty.buffer.Unpooled;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.TorusNode;
import org.camdoop.torus.transport.wire.StreamId;

/**
 * This daemon's failure view (failed and vacant servers), replaced whole and installed in the transport on each failure
 * whoever reported it, and the view a shuffle generation is planned on: the vacant coordinates plus the failures its
 * root named, the same on every daemon.
 *
 * <p>Thread-safety: updates are serialised by this object's monitor; readers see the latest view (volatile).
 */
final class DaemonView {
    private final TorusNode node;
    private final TorusShape shape;
    private final FailureView initial;
    private volatile FailureView view;

    DaemonView(TorusNode node, FailureView initial) {
        this.node = node;
        this.shape = node.shape();
        this.initial = initial;
        this.view = initial;
    }

    FailureView current() {
        return view;
    }

    /** Takes server {@code s} as failed; false if it was already (nothing changes then). */
    synchronized boolean markFailed(int s) {
        if (!view.isLive(s)) {
            return false;
        }
        view = view.withFailed(shape.coord(s));
        node.setFailureView(view);
        return true;
    }

    /** Indices of the servers failed now, ascending. */
    int[] failed() {
        FailureView v = view;
        return java.util.stream.IntStream.range(0, shape.size()).filter(v::isFailed).toArray();
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

    /** Sends a service message to every live server other than this one (best effort, like every service message). */
    void tellLivePeers(StreamId id, byte[] message) {
        for (int s : livePeers()) {
            node.sendService(shape.coord(s), id, Unpooled.wrappedBuffer(message));
        }
    }
}
