package org.camdoop.torus.transport.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;
import org.camdoop.torus.topology.Coord;

/**
 * Writes frames. Routed data frames are written as a small header buffer followed by the caller's payload buffer, so
 * payloads are never copied.
 */
public final class FrameWriter {

    private FrameWriter() {
    }

    /**
     * A DATA or END header whose length prefix covers {@code payloadBytes} more bytes; the caller writes the payload
     * right after it.
     */
    public static ByteBuf sequencedHeader(ByteBufAllocator alloc, MessageType type, int src, int dst, StreamId id,
            long seq, int payloadBytes) {
        return sequencedHeader(alloc, type, 0, src, dst, id, seq, payloadBytes);
    }

    /** As above with the frame's {@code flags} ({@link FrameLayout#FLAG_ACK_REQUESTED}). */
    public static ByteBuf sequencedHeader(ByteBufAllocator alloc, MessageType type, int flags, int src, int dst,
            StreamId id, long seq, int payloadBytes) {
        ByteBuf b = alloc.ioBuffer(FrameLayout.LENGTH_FIELD + FrameLayout.PAYLOAD);
        b.writeInt(FrameLayout.PAYLOAD + payloadBytes);
        routedHeader(b, type, flags, src, dst, id);
        b.writeLong(seq);
        return b;
    }

    public static ByteBuf credit(ByteBufAllocator alloc, int src, int dst, StreamId id, long acked, long limit) {
        return credit(alloc, src, dst, id, acked, limit, false);
    }

    /** As above, flagged {@link FrameLayout#FLAG_GAP} when {@code gap}: the receiver asks for a resend after acked. */
    public static ByteBuf credit(ByteBufAllocator alloc, int src, int dst, StreamId id, long acked, long limit,
            boolean gap) {
        ByteBuf b = alloc.ioBuffer(FrameLayout.LENGTH_FIELD + FrameLayout.ROUTED_HEADER + FrameLayout.CREDIT_BODY);
        b.writeInt(FrameLayout.ROUTED_HEADER + FrameLayout.CREDIT_BODY);
        routedHeader(b, MessageType.CREDIT, gap ? FrameLayout.FLAG_GAP : 0, src, dst, id);
        b.writeLong(acked);
        b.writeLong(limit);
        return b;
    }

    public static ByteBuf urgent(ByteBufAllocator alloc, int src, int dst, StreamId id, boolean urgent) {
        ByteBuf b = alloc.ioBuffer(FrameLayout.LENGTH_FIELD + FrameLayout.ROUTED_HEADER + FrameLayout.URGENT_BODY);
        b.writeInt(FrameLayout.ROUTED_HEADER + FrameLayout.URGENT_BODY);
        routedHeader(b, MessageType.URGENT, 0, src, dst, id);
        b.writeByte(urgent ? 1 : 0);
        return b;
    }

    public static ByteBuf hello(ByteBufAllocator alloc, int version, Coord from, Coord to, byte[] nonce,
            long incarnation) {
        ByteBuf b = alloc.buffer(FrameLayout.LENGTH_FIELD + FrameLayout.TYPE_HEADER + FrameLayout.HELLO_BODY);
        b.writeInt(FrameLayout.TYPE_HEADER + FrameLayout.HELLO_BODY);
        b.writeByte(MessageType.HELLO.code()).writeByte(0);
        b.writeShort(version);
        coord(b, from);
        coord(b, to);
        b.writeBytes(nonce, 0, FrameLayout.NONCE_BYTES);
        b.writeLong(incarnation);
        return b;
    }

    public static ByteBuf auth(ByteBufAllocator alloc, byte[] proof) {
        ByteBuf b = alloc.buffer(FrameLayout.LENGTH_FIELD + MessageType.AUTH.minFrameLength());
        b.writeInt(MessageType.AUTH.minFrameLength());
        b.writeByte(MessageType.AUTH.code()).writeByte(0);
        b.writeBytes(proof, 0, FrameLayout.PROOF_BYTES);
        return b;
    }

    /** WELCOME or HEARTBEAT: a type header only. */
    public static ByteBuf bare(ByteBufAllocator alloc, MessageType type) {
        ByteBuf b = alloc.buffer(FrameLayout.LENGTH_FIELD + FrameLayout.TYPE_HEADER);
        b.writeInt(FrameLayout.TYPE_HEADER);
        b.writeByte(type.code()).writeByte(0);
        return b;
    }

    public static ByteBuf error(ByteBufAllocator alloc, ErrorCode code, String text) {
        byte[] t = text.getBytes(StandardCharsets.UTF_8);
        int len = Math.min(t.length, FrameLayout.ERROR_TEXT_MAX_BYTES);
        ByteBuf b = alloc.buffer(FrameLayout.LENGTH_FIELD + FrameLayout.ERROR_TEXT + len);
        b.writeInt(FrameLayout.ERROR_TEXT + len);
        b.writeByte(MessageType.ERROR.code()).writeByte(0);
        b.writeShort(code.code());
        b.writeBytes(t, 0, len);
        return b;
    }

    private static void routedHeader(ByteBuf b, MessageType type, int flags, int src, int dst, StreamId id) {
        b.writeByte(type.code()).writeByte(flags);
        b.writeInt(src);
        b.writeInt(dst);
        b.writeByte(FrameLayout.INITIAL_HOPS);
        b.writeLong(id.job());
        b.writeInt(id.partition());
        b.writeByte(id.tree());
        b.writeInt(id.vertex());
    }

    private static void coord(ByteBuf b, Coord c) {
        b.writeInt(c.x()).writeInt(c.y()).writeInt(c.z());
    }
}
