package org.camdoop.shuffle.service;

import io.netty.buffer.Unpooled;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.service.net.ShuffleMessages;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.Port;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.TorusNode;
import org.camdoop.torus.transport.TransportListener;
import org.camdoop.torus.transport.wire.StreamId;

/**
 * This daemon's failure view (failed and vacant servers, cut links), replaced whole and installed in the transport on
 * each failure or cut whoever reported it, and the view a shuffle generation is planned on: the vacant coordinates
 * plus the failures its root named (never the cuts), the same on every daemon.
 *
 * <p>Thread-safety: updates are serialised by this object's monitor; readers see the latest view (volatile).
 */
final class DaemonView {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(DaemonView.class);
    private final TorusNode node;
    private final TorusShape shape;
    private final FailureView initial;
    private volatile FailureView view;

    DaemonView(TorusNode node, FailureView initial) {
        this.node = node;
        this.shape = node.shape();
        this.initial = initial;
        this.view = initial;
        node.addListener(new TransportListener() {
            @Override
            public void linkCut(Port port, Coord peer) {
                cutLink(node.index(), shape.index(peer)); // on the event loop: the transport routes around it already
            }
        });
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

    /**
     * Routes around the link between neighbours {@code a} and {@code b} from now on: detected here (its link stayed
     * down for half the failure timeout) or told by a peer (LINK_CUT). The first time, tells its live neighbours over
     * their own links, which then do the same: the cut floods the torus one hop at a time, a message per daemon and
     * link, and reaches every daemon still connected whatever the other daemons' routes (a message routed several
     * hops could be sent back across the cut link by a daemon that does not know of it yet, and die there; telling
     * every daemon directly from every daemon cost 700 routed messages per cut, and made the fault campaign half as
     * slow again). The view a shuffle is planned on does not change: its edges across the link just take a longer
     * path.
     */
    void cutLink(int a, int b) {
        synchronized (this) {
            if (view.isCut(a, b)) {
                return;
            }
            view = view.withCutLink(shape.coord(a), shape.coord(b));
            node.setFailureView(view);
        }
        LOG.warn("the link between {} and {} is cut: routing around it", shape.coord(a), shape.coord(b));
        byte[] message = ShuffleMessages.linkCut(a, b);
        StreamId control = new StreamId(0, 0, ControlTrees.CONTROL, node.index());
        FailureView v = view;
        for (Port p : shape.links()) {
            int n = shape.neighbour(node.index(), p);
            if (n != node.index() && v.canCross(node.index(), n)) {
                node.sendService(shape.coord(n), control, Unpooled.wrappedBuffer(message));
            }
        }
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
