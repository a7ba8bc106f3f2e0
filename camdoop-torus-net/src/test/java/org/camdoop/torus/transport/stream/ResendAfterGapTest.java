package org.camdoop.torus.transport.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import org.camdoop.torus.transport.wire.StreamId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * When a sender resends after a receiver's gap report ({@link OutboundStream#resendsAfterGap}): once per gap, not for
 * a stale report, and not again while its last resend still covers the position (frames sent before it still arrive
 * past the gap, and each would report it), so no receiver can make it resend its window more than once per window of
 * progress.
 */
class ResendAfterGapTest {

    private final EmbeddedChannel loop = new EmbeddedChannel();
    private final List<Long> sent = new ArrayList<>();
    private final OutboundStream out = new OutboundStream(new StreamId(1, 0, 0, 0), 1, 1024,
            new BufferBudget(64 * 1024, 1024, 8, Integer.MAX_VALUE), loop.eventLoop(), s -> { });

    @AfterEach
    void close() {
        out.close(null);
        loop.finishAndReleaseAll();
    }

    @Test
    void aGapIsResentOncePerWindowAndAStaleReportNotAtAll() {
        for (int i = 1; i <= 4; i++) {
            assertTrue(out.tryWrite(Unpooled.wrappedBuffer(new byte[] {(byte) i})));
        }
        out.onCredit(0, 8);
        sendWhatCreditAllows();
        assertEquals(List.of(1L, 2L, 3L, 4L), sent);

        out.onCredit(1, 8);
        assertTrue(out.resendsAfterGap(1), "2 was lost and 3 came past it");
        out.resume();
        sendWhatCreditAllows();
        assertEquals(List.of(1L, 2L, 3L, 4L, 2L, 3L, 4L), sent, "everything after 1, once");
        assertFalse(out.resendsAfterGap(1), "4, sent before the resend, arriving past the gap again");
        out.onCredit(3, 8);
        assertFalse(out.resendsAfterGap(1), "a stale report: 3 is acknowledged already");
        assertFalse(out.resendsAfterGap(3), "the resend of 4 is still on its way");
        out.onCredit(4, 8);
        assertTrue(out.resendsAfterGap(4), "past what the last resend covered, a new gap counts");
    }

    private void sendWhatCreditAllows() {
        while (out.deliverNext((seq, end, ack, payload) -> {
            sent.add(seq);
            payload.release();
        })) {
            // as many as the credit allows
        }
    }
}
