package org.camdoop.shuffle.service.net;

import io.netty.buffer.ByteBuf;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.camdoop.shuffle.protocol.EndOfStream;
import org.camdoop.shuffle.service.vertex.InboundChunk;
import org.camdoop.shuffle.service.vertex.Vertex;
import org.camdoop.torus.transport.stream.InboundHandler;
import org.camdoop.torus.transport.stream.InboundStream;

/**
 * Feeds one child stream to its vertex. Called on the transport's event loop, so it only unwraps frames and posts them
 * to the vertex's mailbox; a whole chunk stays in its transport buffer until the vertex releases it (which returns the
 * credit), while the pieces of a split chunk are copied together and their credit returned at once.
 */
public final class StreamInput implements InboundHandler {

    private final Vertex vertex;
    private final int input;
    // Pieces of a split chunk (event loop only).
    private ByteArrayOutputStream parts;

    public StreamInput(Vertex vertex, int input) {
        this.vertex = vertex;
        this.input = input;
    }

    @Override
    public void onData(InboundStream stream, long seq, ByteBuf data) {
        byte kind = data.readByte();
        if (kind == StreamFrames.WHOLE) {
            // Zero copy: the chunk stays in its transport buffer until the vertex's merge has moved past it.
            ByteBuffer bytes = data.nioBuffer();
            vertex.onChunk(input, new InboundChunk(bytes, () -> {
                data.release();
                stream.release(1);
            }));
            return;
        }
        if (parts == null) {
            parts = new ByteArrayOutputStream();
        }
        byte[] piece = new byte[data.readableBytes()];
        data.readBytes(piece);
        parts.writeBytes(piece);
        data.release();
        stream.release(1);
        if (kind == StreamFrames.LAST_PART) {
            byte[] whole = parts.toByteArray();
            parts = null;
            vertex.onChunk(input, new InboundChunk(ByteBuffer.wrap(whole), () -> { }));
        } else if (kind != StreamFrames.PART) {
            vertex.fail("child stream " + stream.id() + " sent a frame of unknown kind " + kind);
        }
    }

    @Override
    public void onEnd(InboundStream stream, ByteBuf payload) {
        try {
            byte status = payload.readByte();
            byte[] rest = new byte[payload.readableBytes()];
            payload.readBytes(rest);
            if (status == StreamFrames.OK) {
                vertex.onEnd(input, EndOfStream.decode(rest));
            } else {
                vertex.fail("child failed: " + new String(rest, StandardCharsets.UTF_8));
            }
        } catch (RuntimeException e) {
            vertex.fail("bad end of child stream " + stream.id() + ": " + e.getMessage());
        } finally {
            // The transport finishes the stream itself once the vertex has released the buffers it still holds.
            payload.release();
        }
    }
}
