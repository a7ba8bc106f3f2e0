package org.camdoop.shuffle.service.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.concurrent.ImmediateEventExecutor;
import java.util.ArrayList;
import java.util.List;
import org.camdoop.shuffle.protocol.EndOfStream;
import org.camdoop.shuffle.service.vertex.InboundChunk;
import org.camdoop.shuffle.service.vertex.VertexInput;
import org.camdoop.torus.transport.stream.BufferBudget;
import org.camdoop.torus.transport.stream.CreditSink;
import org.camdoop.torus.transport.stream.InboundStream;
import org.camdoop.torus.transport.wire.StreamId;
import org.junit.jupiter.api.Test;

/** Malformed frames from a child stream: every buffer and every credit comes back, the vertex learns why. */
class StreamInputTest {

    private static final StreamId ID = new StreamId(5, 1, 0, 2);

    /** Records what the vertex is told. */
    static final class Recorder implements VertexInput {
        final List<byte[]> chunks = new ArrayList<>();
        final List<String> failures = new ArrayList<>();

        @Override
        public void onChunk(int input, InboundChunk chunk) {
            byte[] b = new byte[chunk.bytes().remaining()];
            chunk.bytes().get(b);
            chunks.add(b);
            chunk.release().run();
        }

        @Override
        public void onEnd(int input, EndOfStream end) {
        }

        @Override
        public void fail(String reason) {
            failures.add(reason);
        }
    }

    private final BufferBudget budget = new BufferBudget(64 * 1024, 1024, 2, Integer.MAX_VALUE);
    private final CreditSink sink = new CreditSink() {
        @Override
        public void credit(int sender, StreamId id, long acked, long limit) {
        }

        @Override
        public void urgent(int sender, StreamId id, boolean urgent) {
        }

        @Override
        public void closed(InboundStream stream) {
        }
    };

    private InboundStream stream(Recorder vertex, long maxRecord) {
        InboundStream s = new InboundStream(ID, 0, new StreamInput(vertex, 0, maxRecord), budget,
                ImmediateEventExecutor.INSTANCE, sink, 16);
        s.open();
        return s;
    }

    private static ByteBuf piece(byte kind, int bytes) {
        return Unpooled.buffer(1 + bytes).writeByte(kind).writeZero(bytes);
    }

    @Test
    void anEmptyDataPayloadGivesBackItsBufferAndCreditAndFailsTheVertex() {
        Recorder vertex = new Recorder();
        InboundStream s = stream(vertex, 1 << 20);
        ByteBuf empty = Unpooled.buffer(0);
        s.onData(1, false, empty);
        assertEquals(0, empty.refCnt(), "the buffer is released");
        assertEquals(0, s.heldBuffers(), "its credit is given back");
        assertEquals(List.of("child stream " + ID + " sent an empty DATA frame (sequence 1)"), vertex.failures);
        // Frames after the failure are only released.
        ByteBuf next = piece(StreamFrames.WHOLE, 10);
        s.onData(2, false, next);
        assertEquals(0, next.refCnt());
        assertEquals(0, s.heldBuffers());
        assertEquals(1, vertex.failures.size());
        assertTrue(vertex.chunks.isEmpty());
    }

    @Test
    void aRecordLongerThanTheBoundFailsTheVertexAndItsPiecesAreDropped() {
        Recorder vertex = new Recorder();
        InboundStream s = stream(vertex, 2500);
        List<ByteBuf> sent = new ArrayList<>();
        long seq = 0;
        for (int i = 0; i < 4; i++) {
            ByteBuf p = piece(i < 3 ? StreamFrames.PART : StreamFrames.LAST_PART, 1000);
            sent.add(p);
            s.onData(++seq, false, p);
        }
        sent.forEach(b -> assertEquals(0, b.refCnt()));
        assertEquals(0, s.heldBuffers());
        assertEquals(List.of("child stream " + ID + " sent a record of more than 2500 bytes"
                + " (camdoop.daemon.record.max.bytes); its pieces are dropped"), vertex.failures);
        assertTrue(vertex.chunks.isEmpty());
    }

    @Test
    void aRecordWithinTheBoundIsReassembled() {
        Recorder vertex = new Recorder();
        InboundStream s = stream(vertex, 2500);
        s.onData(1, false, piece(StreamFrames.PART, 1000));
        s.onData(2, false, piece(StreamFrames.LAST_PART, 1500));
        assertEquals(1, vertex.chunks.size());
        assertEquals(2500, vertex.chunks.get(0).length);
        assertTrue(vertex.failures.isEmpty());
        assertEquals(0, s.heldBuffers());
    }

    @Test
    void aFrameOfUnknownKindFailsTheVertexWithoutKeepingIt() {
        Recorder vertex = new Recorder();
        InboundStream s = stream(vertex, 2500);
        ByteBuf odd = piece((byte) 9, 10);
        s.onData(1, false, odd);
        assertEquals(0, odd.refCnt());
        assertEquals(0, s.heldBuffers());
        assertEquals(List.of("child stream " + ID + " sent a frame of unknown kind 9"), vertex.failures);
    }
}
