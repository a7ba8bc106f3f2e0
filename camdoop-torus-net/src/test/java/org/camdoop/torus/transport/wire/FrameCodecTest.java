package org.camdoop.torus.transport.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.transport.link.ProtocolGuard;
import org.junit.jupiter.api.Test;

class FrameCodecTest {

    private static final int MAX = 4096;
    private static final Message.Route ROUTE = new Message.Route(3, 17, 9, new StreamId(1234567890123L, 7, 5, 26));

    static List<Message> everyType() {
        byte[] nonce = new byte[FrameLayout.NONCE_BYTES];
        new Random(1).nextBytes(nonce);
        byte[] proof = new byte[FrameLayout.PROOF_BYTES];
        new Random(2).nextBytes(proof);
        return List.of(
                new Message.Hello(1, new Coord(1, 2, 3), new Coord(2, 2, 3), nonce, 1_764_000_000_000L),
                new Message.Auth(proof),
                new Message.Welcome(),
                new Message.Error(ErrorCode.BAD_PROOF, "server 1,0,0 failed to prove the cluster secret"),
                new Message.Heartbeat(),
                new Message.Data(ROUTE, 42, "some data".getBytes()),
                new Message.Data(ROUTE, 43, new byte[0]),
                new Message.End(ROUTE, 44, "attempts:1,2,3".getBytes()),
                new Message.Credit(ROUTE, 41, 99),
                new Message.Urgent(ROUTE, true),
                new Message.Urgent(ROUTE, false),
                new Message.Service(ROUTE, 7, "shuffle start".getBytes()));
    }

    @Test
    void everyMessageTypeSurvivesARoundTrip() {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(MAX));
        List<Message> sent = everyType();
        // All frames in one buffer, then split at odd places: the decoder must reassemble them.
        ByteBuf all = Unpooled.buffer();
        for (Message m : sent) {
            ByteBuf f = Messages.encode(ByteBufAllocator.DEFAULT, m);
            all.writeBytes(f);
            f.release();
        }
        while (all.isReadable()) {
            ch.writeInbound(all.readRetainedSlice(Math.min(7, all.readableBytes())));
        }
        all.release();
        for (Message m : sent) {
            ByteBuf f = ch.readInbound();
            try {
                assertEquals(m, Messages.decode(f));
            } finally {
                f.release();
            }
        }
        assertNull(ch.readInbound());
        assertFalse(ch.finish());
        assertEquals(10, MessageType.values().length, "a new type needs a round-trip case here");
    }

    @Test
    void oversizedFrameGetsAnErrorFrameThenTheConnectionCloses() {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(MAX), new ProtocolGuard());
        ByteBuf b = Unpooled.buffer().writeInt(MAX + 1).writeByte(MessageType.DATA.code()).writeZero(100);
        ch.writeInbound(b);
        assertEquals(0, b.refCnt());
        ByteBuf err = ch.readOutbound();
        err.skipBytes(FrameLayout.LENGTH_FIELD);
        Message.Error e = (Message.Error) Messages.decode(err);
        err.release();
        assertEquals(ErrorCode.FRAME_TOO_LARGE, e.code());
        assertTrue(e.text().contains("exceeds"), e.text());
        assertFalse(ch.isOpen());
    }

    @Test
    void unknownTypeAndShortFramesAreRefusedWithTheirReason() {
        assertRefused(Unpooled.buffer().writeInt(2).writeByte(77).writeByte(0), ErrorCode.UNKNOWN_TYPE,
                "unknown frame type 77");
        assertRefused(Unpooled.buffer().writeInt(10).writeByte(MessageType.CREDIT.code()).writeZero(9),
                ErrorCode.MALFORMED_FRAME, "CREDIT frame of 10 bytes is shorter than 44");
        assertRefused(Unpooled.buffer().writeInt(1).writeByte(MessageType.DATA.code()), ErrorCode.MALFORMED_FRAME,
                "frame of 1 bytes is shorter than its header");
    }

    private static void assertRefused(ByteBuf in, ErrorCode code, String text) {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(MAX), new ProtocolGuard());
        ch.writeInbound(in);
        ByteBuf err = ch.readOutbound();
        err.skipBytes(FrameLayout.LENGTH_FIELD);
        Message.Error e = (Message.Error) Messages.decode(err);
        err.release();
        assertEquals(code, e.code());
        assertEquals(text, e.text());
        assertFalse(ch.isOpen());
        ch.finishAndReleaseAll();
    }

    @Test
    void randomAndTruncatedBytesNeverEscapeOrLeak() {
        Random rnd = new Random(42);
        List<ByteBuf> valid = new ArrayList<>();
        for (Message m : everyType()) {
            valid.add(Messages.encode(ByteBufAllocator.DEFAULT, m));
        }
        for (int round = 0; round < 2000; round++) {
            EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(MAX), new ProtocolGuard());
            ByteBuf in;
            if (round % 2 == 0) {
                byte[] junk = new byte[1 + rnd.nextInt(64)];
                rnd.nextBytes(junk);
                in = Unpooled.wrappedBuffer(junk);
            } else {
                ByteBuf v = valid.get(rnd.nextInt(valid.size()));
                ByteBuf copy = Unpooled.copiedBuffer(v.duplicate());
                // Truncate, or corrupt one byte of a valid frame.
                if (rnd.nextBoolean()) {
                    copy.writerIndex(1 + rnd.nextInt(copy.readableBytes() - 1));
                } else {
                    copy.setByte(rnd.nextInt(copy.readableBytes()), rnd.nextInt(256));
                }
                in = copy;
            }
            String hex = io.netty.buffer.ByteBufUtil.hexDump(in);
            ch.writeInbound(in); // must not throw: the guard absorbs every failure
            for (Object o; (o = ch.readInbound()) != null; ) {
                ByteBuf f = (ByteBuf) o;
                try {
                    Messages.decode(f);
                } catch (ProtocolException expected) {
                    // a corrupted coordinate is caught when decoded
                } finally {
                    f.release();
                }
            }
            ch.finishAndReleaseAll();
            assertEquals(0, in.refCnt(), "input buffer leaked in round " + round + ": " + hex);
        }
        valid.forEach(ByteBuf::release);
    }
}
