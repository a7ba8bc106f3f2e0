package org.camdoop.torus.transport;

import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.Port;

/**
 * Link and server events for the layer above. Called on the node's event loop: return quickly. Every method has an
 * empty default so a listener overrides only what it needs.
 */
public interface TransportListener {

    /** The link through {@code port} to neighbour {@code peer} completed its handshake. */
    default void linkUp(Port port, Coord peer) {
    }

    /**
     * As {@link #linkUp(Port, Coord)}, with the incarnation the neighbour's daemon proved in the handshake (a restarted
     * daemon has a larger one than its earlier run). The node calls this one; by default it calls the other.
     */
    default void linkUp(Port port, Coord peer, long peerIncarnation) {
        linkUp(port, peer);
    }

    /** A handshake with {@code remote} failed, refused by either side (wrong secret, coordinate, version...). */
    default void linkRefused(java.net.SocketAddress remote, String reason) {
    }

    /** The link through {@code port} closed (cut, missed heartbeats, peer refused or stopped). */
    default void linkDown(Port port, Coord peer, String reason) {
    }

    /** The link to a neighbour went down: the server may have failed. */
    default void serverSuspected(Coord server) {
    }

    /**
     * The link through {@code port} to neighbour {@code peer} stayed down for half the failure timeout: this node now
     * routes around it and asks {@code peer}, along the new route, whether it is alive. Tell the other daemons, so they
     * route around the link too.
     */
    default void linkCut(Port port, Coord peer) {
    }

    /**
     * As {@link #linkCut(Port, Coord)}, with the incarnation of the neighbour's daemon on the link's last connection.
     * The node calls this one; by default it calls the other.
     */
    default void linkCut(Port port, Coord peer, long peerIncarnation) {
        linkCut(port, peer);
    }

    /** A suspected neighbour's link stayed down for the failure timeout and it did not answer around the link. */
    default void serverFailed(Coord server) {
    }

    /**
     * As {@link #serverFailed(Coord)}, naming the incarnation declared failed: the one its link last came up with (0
     * if it never did). The node calls this one; by default it calls the other.
     */
    default void serverFailed(Coord server, long incarnation) {
        serverFailed(server);
    }
}
