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

    /** A handshake with {@code remote} failed, refused by either side (wrong secret, coordinate, version...). */
    default void linkRefused(java.net.SocketAddress remote, String reason) {
    }

    /** The link through {@code port} closed (cut, missed heartbeats, peer refused or stopped). */
    default void linkDown(Port port, Coord peer, String reason) {
    }

    /** The link to a neighbour went down: the server may have failed. */
    default void serverSuspected(Coord server) {
    }

    /** A suspected neighbour stayed unreachable for the failure timeout. */
    default void serverFailed(Coord server) {
    }
}
