package org.camdoop.torus.transport;

import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.Port;

/**
 * One torus link as its node sees it now (for metrics and status pages).
 *
 * @param port      the port on this node
 * @param peer      the neighbour's coordinate through it
 * @param up        whether the link has completed its handshake and not failed since
 * @param bytesSent bytes of stream frames this node has written on the link since it started (every connection;
 *                  control frames and heartbeats are not counted)
 * @param routedAround whether every route avoids the link: it was down for half the failure timeout, here or as its
 *                  other end reported (it stays unused until a new run of either end's daemon connects across it), or
 *                  the neighbour is declared failed
 * @param peerIncarnation the incarnation of the neighbour's daemon on the link's last connection (0 if none came up)
 */
public record LinkState(Port port, Coord peer, boolean up, long bytesSent, boolean routedAround, long peerIncarnation) {
}
