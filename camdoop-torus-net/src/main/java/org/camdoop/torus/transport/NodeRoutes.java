package org.camdoop.torus.transport;

import java.util.BitSet;
import org.camdoop.torus.routing.RoutingTable;
import org.camdoop.torus.routing.UnreachableException;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.TorusShape;

/**
 * The routes this node uses: the failure view the layer above installed, plus the links of this node that it routes
 * around on its own (a link down for half the failure timeout, {@link FailureDetector}). The layer above learns of
 * such a link and puts it into every daemon's view; until then, only this node knows to avoid it. A link routed
 * around stays so while the neighbour's daemon is the run it was routed around at: only a connection to a later run
 * (a larger incarnation, {@link #restore}) brings it back, so a flapping link between two running daemons is not taken
 * back and forth. Owned by the node's event loop.
 */
final class NodeRoutes {

    private final TorusShape shape;
    private final int self;
    /** Neighbours whose link this node routes around. */
    private final BitSet aroundLinkTo = new BitSet();
    /** Per neighbour routed around: the incarnation of its daemon when this node began to route around the link. */
    private final java.util.Map<Integer, Long> aroundAtIncarnation = new java.util.HashMap<>();
    private FailureView installed;
    private RoutingTable table;

    NodeRoutes(TorusShape shape, int self, FailureView view) {
        this.shape = shape;
        this.self = self;
        install(view);
    }

    RoutingTable table() {
        return table;
    }

    /** Routes over {@code view} from now on, still avoiding the links this node routes around. */
    void install(FailureView view) {
        installed = view;
        rebuild();
    }

    /**
     * Avoids the link to neighbour {@code peer}, whose daemon's last connection was at {@code peerIncarnation}, until
     * a later run of that daemon connects; false if it already did.
     */
    boolean routeAround(int peer, long peerIncarnation) {
        if (aroundLinkTo.get(peer)) {
            return false;
        }
        aroundLinkTo.set(peer);
        aroundAtIncarnation.put(peer, peerIncarnation);
        rebuild();
        return true;
    }

    /**
     * The link to neighbour {@code peer} came up to its daemon at {@code peerIncarnation}: if this node routed around
     * the link at an earlier run of that daemon, it uses the link again. True if the routes changed.
     */
    boolean restore(int peer, long peerIncarnation) {
        if (!aroundLinkTo.get(peer) || peerIncarnation <= aroundAtIncarnation.get(peer)) {
            return false;
        }
        aroundLinkTo.clear(peer);
        aroundAtIncarnation.remove(peer);
        rebuild();
        return true;
    }

    /**
     * Whether every route avoids this node's link to neighbour {@code peer}: cut (by its own detection or by the view),
     * or the peer is out of the view.
     */
    boolean avoids(int peer) {
        return !table.view().canCross(self, peer);
    }

    /** Whether the path from {@code from} to {@code to} differs between two tables (unreachable in either: yes). */
    static boolean pathChanged(RoutingTable before, RoutingTable after, int from, int to) {
        if (before == after) {
            return false;
        }
        try {
            return !java.util.Arrays.equals(before.path(from, to), after.path(from, to));
        } catch (UnreachableException e) {
            return true;
        }
    }

    private void rebuild() {
        FailureView v = installed;
        for (int peer = aroundLinkTo.nextSetBit(0); peer >= 0; peer = aroundLinkTo.nextSetBit(peer + 1)) {
            if (!v.isCut(self, peer)) {
                v = v.withCutLink(shape.coord(self), shape.coord(peer));
            }
        }
        table = new RoutingTable(v);
    }
}
