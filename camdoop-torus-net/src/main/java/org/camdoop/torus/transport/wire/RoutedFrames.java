package org.camdoop.torus.transport.wire;

import io.netty.buffer.ByteBuf;

/**
 * Reads the fields of a decoded frame in place (the frame as {@link FrameDecoder} emits it, prefix stripped). The
 * decoder has already checked the type and minimum length, so these reads are in bounds.
 */
public final class RoutedFrames {

    private RoutedFrames() {
    }

    public static MessageType type(ByteBuf f) {
        return MessageType.ofCode(f.getUnsignedByte(f.readerIndex() + FrameLayout.TYPE));
    }

    /** Whether a DATA frame's sender asked for a prompt acknowledgement. */
    public static boolean ackRequested(ByteBuf f) {
        return (f.getByte(f.readerIndex() + FrameLayout.FLAGS) & FrameLayout.FLAG_ACK_REQUESTED) != 0;
    }

    /** Whether a CREDIT frame's receiver lost frames after its acknowledged position ({@link FrameLayout#FLAG_GAP}). */
    public static boolean gap(ByteBuf f) {
        return (f.getByte(f.readerIndex() + FrameLayout.FLAGS) & FrameLayout.FLAG_GAP) != 0;
    }

    public static int src(ByteBuf f) {
        return f.getInt(f.readerIndex() + FrameLayout.SRC);
    }

    public static int dst(ByteBuf f) {
        return f.getInt(f.readerIndex() + FrameLayout.DST);
    }

    public static int hops(ByteBuf f) {
        return f.getUnsignedByte(f.readerIndex() + FrameLayout.HOPS);
    }

    /** Spends one hop of the frame's budget, in place: forwarding touches nothing else. */
    public static void decrementHops(ByteBuf f) {
        int i = f.readerIndex() + FrameLayout.HOPS;
        f.setByte(i, f.getUnsignedByte(i) - 1);
    }

    public static StreamId stream(ByteBuf f) {
        int r = f.readerIndex();
        return new StreamId(f.getLong(r + FrameLayout.JOB), f.getInt(r + FrameLayout.PARTITION),
                f.getUnsignedByte(r + FrameLayout.TREE), f.getInt(r + FrameLayout.VERTEX));
    }

    public static long seq(ByteBuf f) {
        return f.getLong(f.readerIndex() + FrameLayout.SEQ);
    }

    public static long acked(ByteBuf f) {
        return f.getLong(f.readerIndex() + FrameLayout.ACKED);
    }

    public static long limit(ByteBuf f) {
        return f.getLong(f.readerIndex() + FrameLayout.LIMIT);
    }

    public static boolean urgent(ByteBuf f) {
        return f.getByte(f.readerIndex() + FrameLayout.URGENT_FLAG) != 0;
    }

    /** The payload of a DATA or END frame as a retained slice (the caller releases it). */
    public static ByteBuf retainedPayload(ByteBuf f) {
        int start = f.readerIndex() + FrameLayout.PAYLOAD;
        return f.retainedSlice(start, f.writerIndex() - start);
    }
}
