package org.camdoop.bench.micro;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.camdoop.torus.transport.wire.FrameLayout;
import org.camdoop.torus.transport.wire.Message;
import org.camdoop.torus.transport.wire.Messages;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FrameCodecBenchmarkTest {

    private static FrameCodecBenchmark prepared(int payloadBytes) {
        FrameCodecBenchmark b = new FrameCodecBenchmark();
        b.payloadBytes = payloadBytes;
        b.setUp();
        return b;
    }

    private static Message.Data expected(FrameCodecBenchmark b, long seq) {
        return new Message.Data(new Message.Route(FrameCodecBenchmark.SRC, FrameCodecBenchmark.DST,
                FrameLayout.INITIAL_HOPS, FrameCodecBenchmark.STREAM), seq, ByteBufUtil.getBytes(b.payload()));
    }

    @ParameterizedTest
    @ValueSource(ints = {65536, 8192})
    void encodedHeaderAndPayloadDecodeToTheDataMessage(int payloadBytes) {
        FrameCodecBenchmark b = prepared(payloadBytes);
        try {
            ByteBuf frame = Unpooled.wrappedBuffer(b.header(7), b.payload().retainedDuplicate());
            try {
                assertEquals(FrameLayout.PAYLOAD + payloadBytes, frame.readInt(), "length prefix");
                assertEquals(expected(b, 7), Messages.decode(frame));
            } finally {
                frame.release();
            }
        } finally {
            b.tearDown();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {65536, 8192})
    void decoderEmitsTheEncodedFrame(int payloadBytes) {
        FrameCodecBenchmark b = prepared(payloadBytes);
        try {
            ByteBuf frame = b.decodeOne();
            try {
                assertEquals(expected(b, 1), Messages.decode(frame));
                assertEquals(b.wireFrame().readableBytes(), FrameLayout.LENGTH_FIELD + frame.readableBytes());
            } finally {
                frame.release();
            }
        } finally {
            b.tearDown();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {65536, 8192})
    void benchmarkMethodsReleaseEveryBufferTheyTake(int payloadBytes) {
        FrameCodecBenchmark b = prepared(payloadBytes);
        FrameBytesRate rate = new FrameBytesRate();
        for (int i = 0; i < 3; i++) {
            b.encode(TestBlackhole.create(), rate);
            b.decode(TestBlackhole.create(), rate);
        }
        assertEquals(6L * (FrameLayout.LENGTH_FIELD + FrameLayout.PAYLOAD + payloadBytes), rate.frameBytes);
        assertEquals(1, b.payload().refCnt(), "payload duplicates released");
        assertEquals(1, b.wireFrame().refCnt(), "decoded frames and payload slices released");
        ByteBuf payload = b.payload();
        ByteBuf wire = b.wireFrame();
        b.tearDown();
        assertEquals(0, payload.refCnt());
        assertEquals(0, wire.refCnt());
    }
}
