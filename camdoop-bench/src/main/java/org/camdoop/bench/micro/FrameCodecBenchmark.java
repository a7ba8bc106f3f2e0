package org.camdoop.bench.micro;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.camdoop.torus.transport.TransportConfig;
import org.camdoop.torus.transport.wire.FrameDecoder;
import org.camdoop.torus.transport.wire.FrameLayout;
import org.camdoop.torus.transport.wire.FrameWriter;
import org.camdoop.torus.transport.wire.MessageType;
import org.camdoop.torus.transport.wire.RoutedFrames;
import org.camdoop.torus.transport.wire.StreamId;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The transport's DATA frame codec, as the data path uses it. {@link #encode}: what a stream does per frame it sends
 * ({@code OutboundStream.writeNext}): a pooled 40-byte header from {@link FrameWriter#sequencedHeader} and a retained
 * duplicate of the payload, which is never copied, so its bytes/s is payload described, not payload moved.
 * {@link #decode}: what a link does per frame it receives: the whole frame arrives as one read buffer, goes through
 * the link's {@link FrameDecoder} (in an {@link EmbeddedChannel}), and the router reads the stream id and sequence
 * and takes the payload as a retained slice ({@code NodeRouter}). Every buffer is released in the operation.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class FrameCodecBenchmark {
    /** Payload bytes per DATA frame: the default segment (64 KiB) and a small one. */
    @Param({"65536", "8192"})
    public int payloadBytes;

    static final StreamId STREAM = new StreamId(0x5EED_CAFEL, 3, 2, 17);
    static final int SRC = 5;
    static final int DST = 6;

    private final ByteBufAllocator alloc = PooledByteBufAllocator.DEFAULT;
    private ByteBuf payload;
    /** The encoded frame, length prefix included, in one buffer: a socket read holding exactly one frame. */
    private ByteBuf wireFrame;
    private EmbeddedChannel link;
    private long seq;

    /** Random payload, its frame encoded once for decoding, and a channel holding the link's frame decoder. */
    @Setup
    public void setUp() {
        byte[] random = new byte[payloadBytes];
        new SplittableRandom(payloadBytes).nextBytes(random);
        payload = alloc.directBuffer(payloadBytes).writeBytes(random);
        ByteBuf header = header(1);
        wireFrame = alloc.directBuffer(header.readableBytes() + payloadBytes).writeBytes(header)
                .writeBytes(payload, payload.readerIndex(), payloadBytes);
        header.release();
        link = new EmbeddedChannel(new FrameDecoder(TransportConfig.DEFAULT_MAX_FRAME_BYTES));
    }

    /** Releases the shared buffers and whatever the channel still holds. */
    @TearDown
    public void tearDown() {
        link.finishAndReleaseAll();
        wireFrame.release();
        payload.release();
    }

    /** Encodes one DATA frame: header plus zero-copy payload, as a stream hands them to the channel. */
    @Benchmark
    public void encode(Blackhole bh, FrameBytesRate rate) {
        ByteBuf header = header(++seq);
        ByteBuf body = payload.retainedDuplicate();
        bh.consume(header);
        bh.consume(body);
        rate.frameBytes += header.readableBytes() + body.readableBytes();
        header.release();
        body.release();
    }

    /** Decodes one DATA frame from a read buffer and takes its routing fields and payload as the router does. */
    @Benchmark
    public void decode(Blackhole bh, FrameBytesRate rate) {
        ByteBuf frame = decodeOne();
        bh.consume(RoutedFrames.stream(frame));
        bh.consume(RoutedFrames.seq(frame));
        ByteBuf body = RoutedFrames.retainedPayload(frame);
        bh.consume(body);
        rate.frameBytes += FrameLayout.LENGTH_FIELD + frame.readableBytes();
        body.release();
        frame.release();
    }

    /** The DATA header (length prefix included) for sequence {@code sequence}; the caller releases it. */
    ByteBuf header(long sequence) {
        return FrameWriter.sequencedHeader(alloc, MessageType.DATA, SRC, DST, STREAM, sequence, payloadBytes);
    }

    /** The payload every frame carries (owned by this state). */
    ByteBuf payload() {
        return payload;
    }

    /** The encoded frame the decoder is fed (owned by this state). */
    ByteBuf wireFrame() {
        return wireFrame;
    }

    /** Feeds the encoded frame to the decoder as one read; returns the frame it emits (prefix stripped), to release. */
    ByteBuf decodeOne() {
        link.writeInbound(wireFrame.retainedDuplicate());
        ByteBuf frame = link.readInbound();
        if (frame == null) {
            throw new IllegalStateException("the decoder emitted no frame for a whole " + payloadBytes + "-byte frame");
        }
        return frame;
    }
}
