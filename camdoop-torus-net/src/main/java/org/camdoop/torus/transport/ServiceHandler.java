package org.camdoop.torus.transport;

import io.netty.buffer.ByteBuf;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.transport.wire.StreamId;

/**
 * Receives the service messages addressed to this server ({@link TorusNode#sendService}). Called on the node's event
 * loop: hand the work to another thread. The handler owns {@code payload} and must release it.
 */
@FunctionalInterface
public interface ServiceHandler {

    void onMessage(Coord from, StreamId id, ByteBuf payload);
}
