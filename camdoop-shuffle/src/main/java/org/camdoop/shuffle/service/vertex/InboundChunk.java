package org.camdoop.shuffle.service.vertex;

import java.nio.ByteBuffer;

/**
 * One chunk from a child: whole records, and the way to hand its buffer back (which returns the transport credit it
 * occupied). The vertex calls {@code release} exactly once, when its merge no longer needs the bytes.
 */
public record InboundChunk(ByteBuffer bytes, Runnable release) {
}
