package org.camdoop.torus.transport.wire;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;

/**
 * Splits the byte stream into frames and checks each frame's type and minimum length, so handlers after it read
 * fields at fixed offsets without bounds checks. Emits the frame without its length prefix (a slice of the read
 * buffer: no copy). Oversized lengths raise {@link io.netty.handler.codec.TooLongFrameException} before any of the
 * frame is buffered; unknown types and short frames raise {@link ProtocolException}.
 *
 * <p>Layout (all integers big-endian; offsets from the first byte after the length prefix, see {@link FrameLayout}):
 * <pre>
 * every frame
 *   -4  u32  length of what follows (1 .. max frame bytes)
 *    0  u8   type: 1 HELLO, 2 AUTH, 3 WELCOME, 4 ERROR, 5 HEARTBEAT, 6 DATA, 7 END, 8 CREDIT, 9 URGENT, 10 SERVICE
 *    1  u8   flags: DATA bit 0 = acknowledgement requested; CREDIT bit 1 = frames after acked were lost (resend
 *            them now); otherwise 0
 * routed frames (DATA, END, CREDIT, URGENT, SERVICE)
 *    2  i32  source server index
 *    6  i32  destination server index
 *   10  u8   hops left (decremented by each forwarder; dropped at 0)
 *   11  i64  job            \
 *   19  i32  partition       | stream id
 *   23  u8   tree            |
 *   24  i32  sending vertex /
 * DATA / END / SERVICE
 *   28  i64  sequence number (DATA from 1 upwards; END takes the next number; SERVICE: the sender's message number)
 *   36  ...  payload (DATA: one buffer of data; END: opaque end-of-stream payload; SERVICE: the service's message,
 *            delivered to the destination's service handler without credit, or dropped if no route)
 * CREDIT  (receiver to sender)
 *   28  i64  acked: highest sequence received in order
 *   36  i64  limit: the sender may send DATA with sequence &lt;= limit
 * URGENT  (receiver to sender)
 *   28  u8   1 = serve this stream first, 0 = normal
 * HELLO
 *    2  u16  protocol version
 *    4  3xi32 sender's coordinate x, y, z
 *   16  3xi32 coordinate the sender believes it is talking to
 *   28  16B  nonce
 *   44  i64  sender's incarnation (protocol version 5 on; a shorter HELLO of an older version is read far enough
 *            to refuse its version by name)
 * AUTH
 *    2  32B  HMAC-SHA256 proof over both nonces and both sides' coordinates and incarnations
 * WELCOME, HEARTBEAT: no body
 * ERROR
 *    2  u16  error code ({@link ErrorCode})
 *    4  ...  UTF-8 text
 * </pre>
 */
public final class FrameDecoder extends LengthFieldBasedFrameDecoder {

    private final int maxFrameBytes;
    /** Event loop only. */
    private boolean handshaking;
    /** A frame was refused: the connection is closing, and nothing more it sends is buffered. Event loop only. */
    private boolean refused;

    /** @param maxFrameBytes the largest frame accepted, length prefix excluded */
    public FrameDecoder(int maxFrameBytes) {
        this(maxFrameBytes, false);
    }

    /**
     * @param capUntilHandshake accept frames of at most {@link FrameLayout#HANDSHAKE_MAX_FRAME_BYTES} until
     *                          {@link #handshakeDone()}: a connection that has proved nothing could otherwise make the
     *                          daemon buffer a frame of {@code maxFrameBytes} for the whole handshake timeout
     */
    public FrameDecoder(int maxFrameBytes, boolean capUntilHandshake) {
        super(maxFrameBytes + FrameLayout.LENGTH_FIELD, 0, FrameLayout.LENGTH_FIELD, 0, FrameLayout.LENGTH_FIELD, true);
        this.maxFrameBytes = maxFrameBytes;
        this.handshaking = capUntilHandshake;
        // Data frames are large and straddle reads: compose the read buffers instead of copying them into one.
        setCumulator(COMPOSITE_CUMULATOR);
    }

    /**
     * Lifts the handshake cap: frames up to the maximum are accepted from the next one on. Called by the handshake on
     * the event loop while it handles the frame that completed it, so no later frame was measured against the cap.
     */
    public void handshakeDone() {
        handshaking = false;
    }

    public int maxFrameBytes() {
        return maxFrameBytes;
    }

    @Override
    protected Object decode(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
        if (refused) {
            in.skipBytes(in.readableBytes());
            return null;
        }
        if (handshaking && in.readableBytes() >= FrameLayout.LENGTH_FIELD) {
            // The frame's length is read before any of its body is buffered, as for the maximum.
            long len = in.getUnsignedInt(in.readerIndex());
            if (len > FrameLayout.HANDSHAKE_MAX_FRAME_BYTES) {
                refused = true;
                in.skipBytes(in.readableBytes());
                throw new ProtocolException(ErrorCode.FRAME_TOO_LARGE, "frame of " + len + " bytes before the handshake"
                        + " completed; at most " + FrameLayout.HANDSHAKE_MAX_FRAME_BYTES + " until then");
            }
        }
        ByteBuf frame = (ByteBuf) super.decode(ctx, in);
        if (frame == null) {
            return null;
        }
        try {
            check(frame);
        } catch (ProtocolException e) {
            frame.release();
            throw e;
        }
        return frame;
    }

    private static void check(ByteBuf frame) {
        int len = frame.readableBytes();
        if (len < FrameLayout.TYPE_HEADER) {
            throw new ProtocolException(ErrorCode.MALFORMED_FRAME, "frame of " + len + " bytes is shorter than its header");
        }
        int code = frame.getUnsignedByte(frame.readerIndex() + FrameLayout.TYPE);
        MessageType type = MessageType.ofCode(code);
        if (type == null) {
            throw new ProtocolException(ErrorCode.UNKNOWN_TYPE, "unknown frame type " + code);
        }
        if (len < type.minFrameLength()) {
            throw new ProtocolException(ErrorCode.MALFORMED_FRAME, type + " frame of " + len + " bytes is shorter than "
                    + type.minFrameLength());
        }
        if ((type == MessageType.HELLO && len != type.minFrameLength()
                && len != FrameLayout.TYPE_HEADER + FrameLayout.HELLO_BODY)
                || (type == MessageType.AUTH && len != type.minFrameLength())
                || (type == MessageType.CREDIT && len != type.minFrameLength())
                || (type == MessageType.URGENT && len != type.minFrameLength())) {
            throw new ProtocolException(ErrorCode.MALFORMED_FRAME, type + " frame of " + len + " bytes, expected "
                    + type.minFrameLength());
        }
    }
}
