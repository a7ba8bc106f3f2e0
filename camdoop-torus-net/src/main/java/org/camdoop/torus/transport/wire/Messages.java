package org.camdoop.torus.transport.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.camdoop.torus.topology.Coord;

/** Converts between {@link Message} values and frames. */
public final class Messages {

    private Messages() {
    }

    /** The whole frame, length prefix included. */
    public static ByteBuf encode(ByteBufAllocator alloc, Message m) {
        // Java 17 has no pattern switch; the closed set keeps this chain exhaustive in practice.
        if (m instanceof Message.Hello h) {
            return FrameWriter.hello(alloc, h.version(), h.from(), h.to(), h.nonce(), h.incarnation());
        } else if (m instanceof Message.Auth a) {
            return FrameWriter.auth(alloc, a.proof());
        } else if (m instanceof Message.Welcome) {
            return FrameWriter.bare(alloc, MessageType.WELCOME);
        } else if (m instanceof Message.Heartbeat) {
            return FrameWriter.bare(alloc, MessageType.HEARTBEAT);
        } else if (m instanceof Message.Error e) {
            return FrameWriter.error(alloc, e.code(), e.text());
        } else if (m instanceof Message.Data d) {
            return sequenced(alloc, MessageType.DATA, d.route(), d.seq(), d.payload());
        } else if (m instanceof Message.End e) {
            return sequenced(alloc, MessageType.END, e.route(), e.seq(), e.payload());
        } else if (m instanceof Message.Service s) {
            return sequenced(alloc, MessageType.SERVICE, s.route(), s.seq(), s.payload());
        } else if (m instanceof Message.Credit c) {
            return withHops(FrameWriter.credit(alloc, c.route().src(), c.route().dst(), c.route().stream(), c.acked(),
                    c.limit()), c.route());
        } else {
            Message.Urgent u = (Message.Urgent) m;
            return withHops(FrameWriter.urgent(alloc, u.route().src(), u.route().dst(), u.route().stream(),
                    u.urgent()), u.route());
        }
    }

    /**
     * The value of a frame as the decoder emits it (prefix stripped). Does not release {@code f}.
     *
     * @throws ProtocolException if the frame is malformed
     */
    public static Message decode(ByteBuf f) {
        MessageType type = RoutedFrames.type(f);
        if (type == null) {
            throw new ProtocolException(ErrorCode.UNKNOWN_TYPE, "unknown frame type " + f.getUnsignedByte(f.readerIndex()));
        }
        int r = f.readerIndex();
        return switch (type) {
            case HELLO -> new Message.Hello(f.getUnsignedShort(r + FrameLayout.HELLO_VERSION),
                    coord(f, r + FrameLayout.HELLO_FROM), coord(f, r + FrameLayout.HELLO_TO),
                    bytes(f, r + FrameLayout.HELLO_NONCE, FrameLayout.NONCE_BYTES),
                    f.writerIndex() - r >= FrameLayout.HELLO_INCARNATION + Long.BYTES
                            ? f.getLong(r + FrameLayout.HELLO_INCARNATION) : 0);
            case AUTH -> new Message.Auth(bytes(f, r + FrameLayout.AUTH_PROOF, FrameLayout.PROOF_BYTES));
            case WELCOME -> new Message.Welcome();
            case HEARTBEAT -> new Message.Heartbeat();
            case ERROR -> new Message.Error(ErrorCode.ofCode(f.getUnsignedShort(r + FrameLayout.ERROR_CODE)),
                    f.toString(r + FrameLayout.ERROR_TEXT, f.writerIndex() - r - FrameLayout.ERROR_TEXT,
                            StandardCharsets.UTF_8));
            case DATA -> new Message.Data(route(f), RoutedFrames.seq(f),
                    bytes(f, r + FrameLayout.PAYLOAD, f.writerIndex() - r - FrameLayout.PAYLOAD));
            case END -> new Message.End(route(f), RoutedFrames.seq(f),
                    bytes(f, r + FrameLayout.PAYLOAD, f.writerIndex() - r - FrameLayout.PAYLOAD));
            case CREDIT -> new Message.Credit(route(f), RoutedFrames.acked(f), RoutedFrames.limit(f));
            case URGENT -> new Message.Urgent(route(f), RoutedFrames.urgent(f));
            case SERVICE -> new Message.Service(route(f), RoutedFrames.seq(f),
                    bytes(f, r + FrameLayout.PAYLOAD, f.writerIndex() - r - FrameLayout.PAYLOAD));
        };
    }

    private static ByteBuf sequenced(ByteBufAllocator alloc, MessageType t, Message.Route r, long seq, byte[] payload) {
        ByteBuf h = FrameWriter.sequencedHeader(alloc, t, r.src(), r.dst(), r.stream(), seq, payload.length);
        withHops(h, r);
        return Unpooled.wrappedBuffer(h, Unpooled.wrappedBuffer(payload));
    }

    private static ByteBuf withHops(ByteBuf frame, Message.Route r) {
        frame.setByte(FrameLayout.LENGTH_FIELD + FrameLayout.HOPS, r.hops());
        return frame;
    }

    private static Message.Route route(ByteBuf f) {
        return new Message.Route(RoutedFrames.src(f), RoutedFrames.dst(f), RoutedFrames.hops(f), RoutedFrames.stream(f));
    }

    private static Coord coord(ByteBuf f, int at) {
        int x = f.getInt(at);
        int y = f.getInt(at + 4);
        int z = f.getInt(at + 8);
        if (x < 0 || y < 0 || z < 0) {
            throw new ProtocolException(ErrorCode.MALFORMED_FRAME, "negative coordinate " + x + "," + y + "," + z);
        }
        return new Coord(x, y, z);
    }

    private static byte[] bytes(ByteBuf f, int at, int n) {
        byte[] b = new byte[n];
        f.getBytes(at, b);
        return b;
    }
}
