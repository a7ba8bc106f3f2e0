package org.camdoop.torus.transport.stream;

import io.netty.buffer.ByteBuf;

/**
 * What the layer above does with an inbound stream. Called on the node's event loop, in sequence order, exactly once
 * per sequence number: hand the buffer to another thread rather than process it here. The handler owns each buffer it
 * is given, releases it when done and calls {@link InboundStream#release(int)} so the credit it backed is granted
 * again.
 */
public interface InboundHandler {

    /** One data buffer, sequence numbers 1, 2, 3, ... */
    void onData(InboundStream stream, long seq, ByteBuf data);

    /** The end of the stream with the sender's opaque payload (owned by the handler). */
    void onEnd(InboundStream stream, ByteBuf payload);
}
