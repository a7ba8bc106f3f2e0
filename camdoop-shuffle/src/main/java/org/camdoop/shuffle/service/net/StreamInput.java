package org.camdoop.shuffle.service.net;

import io.netty.buffer.ByteBuf;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.camdoop.shuffle.protocol.EndOfStream;
import org.camdoop.shuffle.service.vertex.InboundChunk;
import org.camdoop.shuffle.service.vertex.VertexInput;
import org.camdoop.torus.transport.stream.InboundHandler;
import org.camdoop.torus.transport.stream.InboundStream;

/**
 * Feeds one child stream to its vertex. Called on the transport's event loop, so it only unwraps frames and posts them
 * to the vertex's mailbox; a whole chunk stays in its transport buffer until the vertex releases it (which returns the
 * credit), while the pieces of a split chunk are copied together and their credit returned at once. That copy lives
 * outside the buffer budget, so it is bounded: a chunk (one huge record) longer than {@code maxRecordBytes} fails the
 * vertex and its pieces are dropped.
 *
 * <p>Whatever a frame holds, its buffer and its credit are given back exactly once and nothing is thrown on the event
 * loop: a malformed frame (empty, unknown kind, too long) fails the vertex with a message that says what came.
 */
public final class StreamInput implements InboundHandler {

    private final VertexInput vertex;
    private final int input;
    private final long maxRecordBytes;
    // Event loop only: pieces of a split chunk; whether the stream already failed (later frames are only released).
    private ByteArrayOutputStream parts;
    private boolean failed;

    /** @param maxRecordBytes the longest chunk reassembled from pieces ({@code camdoop.daemon.record.max.bytes}) */
    public StreamInput(VertexInput vertex, int input, long maxRecordBytes) {
        this.vertex = vertex;
        this.input = input;
        this.maxRecordBytes = maxRecordBytes;
    }

    @Override
    public void onData(InboundStream stream, long seq, ByteBuf data) {
        if (failed || !data.isReadable()) {
            data.release();
            stream.release(1);
            if (!failed) {
                fail("child stream " + stream.id() + " sent an empty DATA frame (sequence " + seq + ")");
            }
            return;
        }
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
        int n = data.readableBytes();
        long have = parts == null ? 0 : parts.size();
        String wrong = kind != StreamFrames.PART && kind != StreamFrames.LAST_PART
                ? "child stream " + stream.id() + " sent a frame of unknown kind " + kind
                : have + n > maxRecordBytes
                        ? "child stream " + stream.id() + " sent a record of more than " + maxRecordBytes
                                + " bytes (camdoop.daemon.record.max.bytes); its pieces are dropped"
                        : null;
        if (wrong != null) {
            data.release();
            stream.release(1);
            fail(wrong);
            return;
        }
        if (parts == null) {
            parts = new ByteArrayOutputStream();
        }
        byte[] piece = new byte[n];
        data.readBytes(piece);
        parts.writeBytes(piece);
        data.release();
        stream.release(1);
        if (kind == StreamFrames.LAST_PART) {
            byte[] whole = parts.toByteArray();
            parts = null;
            vertex.onChunk(input, new InboundChunk(ByteBuffer.wrap(whole), () -> { }));
        }
    }

    private void fail(String reason) {
        failed = true;
        parts = null;
        vertex.failInput(input, reason);
    }

    @Override
    public void onEnd(InboundStream stream, ByteBuf payload) {
        try {
            if (failed) {
                return;
            }
            byte status = payload.readByte();
            byte[] rest = new byte[payload.readableBytes()];
            payload.readBytes(rest);
            if (status == StreamFrames.OK) {
                vertex.onEnd(input, EndOfStream.decode(rest));
            } else {
                vertex.failInput(input, "child failed: " + new String(rest, StandardCharsets.UTF_8));
            }
        } catch (RuntimeException e) {
            vertex.failInput(input, "bad end of child stream " + stream.id() + ": " + e.getMessage());
        } finally {
            // The transport finishes the stream itself once the vertex has released the buffers it still holds.
            payload.release();
        }
    }
}
