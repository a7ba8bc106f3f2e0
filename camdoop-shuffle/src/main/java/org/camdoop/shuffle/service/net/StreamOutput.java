package org.camdoop.shuffle.service.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.camdoop.shuffle.protocol.EndOfStream;
import org.camdoop.shuffle.service.vertex.VertexOutput;
import org.camdoop.torus.transport.stream.OutboundStream;

/**
 * A vertex's stream to its parent over the transport. A chunk that fits one segment goes as one frame; a larger one
 * (a single record bigger than a segment) goes as several PART frames, each waiting for its own credit. Used only
 * from the vertex's thread.
 */
public final class StreamOutput implements VertexOutput {

    private final OutboundStream stream;
    private final int maxData;
    // A chunk being sent in parts: where the next part starts (owned by the vertex's thread).
    private byte[] partial;
    private int partialLength;
    private int partialOffset;

    /** @param segmentBytes the transport's largest data frame payload */
    public StreamOutput(OutboundStream stream, int segmentBytes) {
        this.stream = stream;
        this.maxData = segmentBytes - StreamFrames.HEADER;
    }

    /** The largest chunk that travels in one frame: what the vertex's chunk writer should aim for. */
    public static int chunkBytesFor(int segmentBytes) {
        return segmentBytes - StreamFrames.HEADER;
    }

    @Override
    public boolean offer(byte[] chunk, int length) {
        if (partial == null && length <= maxData) {
            return write(StreamFrames.WHOLE, chunk, 0, length);
        }
        if (partial == null) {
            partial = chunk;
            partialLength = length;
            partialOffset = 0;
        }
        while (partialOffset < partialLength) {
            int n = Math.min(maxData, partialLength - partialOffset);
            boolean last = partialOffset + n == partialLength;
            if (!write(last ? StreamFrames.LAST_PART : StreamFrames.PART, partial, partialOffset, n)) {
                // Parts sent so far stay sent; the vertex offers the same chunk again when writable.
                return false;
            }
            partialOffset += n;
        }
        partial = null;
        return true;
    }

    private boolean write(byte kind, byte[] bytes, int offset, int length) {
        // No copy: a chunk handed to the output is never written again (RecordChunkWriter starts a new one).
        ByteBuf frame = Unpooled.wrappedBuffer(Unpooled.wrappedBuffer(new byte[] {kind}),
                Unpooled.wrappedBuffer(bytes, offset, length));
        if (stream.tryWrite(frame)) {
            return true;
        }
        frame.release();
        return false;
    }

    @Override
    public void whenWritable(Runnable wake) {
        stream.whenWritable().whenComplete((v, e) -> wake.run());
    }

    @Override
    public boolean hasUnsent() {
        return partial != null || stream.hasUnsent();
    }

    @Override
    public void whenSent(Runnable wake) {
        stream.whenSent().whenComplete((v, e) -> wake.run());
    }

    @Override
    public void end(EndOfStream end) {
        stream.end(Unpooled.wrappedBuffer(new byte[] {StreamFrames.OK}, end.encode()));
    }

    @Override
    public void fail(String reason) {
        try {
            stream.end(Unpooled.wrappedBuffer(new byte[] {StreamFrames.FAILED}, reason.getBytes(StandardCharsets.UTF_8)));
        } catch (IllegalStateException alreadyClosed) {
            // The stream died under us (link gone): the parent learns of the failure from the transport instead.
        }
    }
}
