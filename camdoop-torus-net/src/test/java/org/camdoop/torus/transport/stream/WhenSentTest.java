package org.camdoop.torus.transport.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.camdoop.torus.transport.wire.StreamId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link OutboundStream#whenSent()} and {@link OutboundStream#hasUnsent()}: a vertex holding a partly filled chunk
 * waits on them for what it queued to leave (performance.md, P6). They must complete exactly when the last frame
 * written so far is handed on, not when credit merely arrives, and a closed stream must release its waiter and report
 * nothing unsent (else the writer, woken at once, would spin).
 */
class WhenSentTest {

    private static final StreamId ID = new StreamId(1, 0, 0, 0);

    private final EmbeddedChannel loop = new EmbeddedChannel();
    private final List<Long> delivered = new ArrayList<>();
    private final OutboundStream out = new OutboundStream(ID, 1, 1024,
            new BufferBudget(64 * 1024, 1024, 4, Integer.MAX_VALUE), loop.eventLoop(), s -> { });

    @AfterEach
    void close() {
        out.close(null);
        loop.finishAndReleaseAll();
    }

    @Test
    void completesWhenTheLastFrameWrittenSoFarLeaves() {
        assertFalse(out.hasUnsent(), "nothing written");
        assertTrue(out.whenSent().isDone(), "nothing written, nothing to wait for");
        assertTrue(out.tryWrite(Unpooled.wrappedBuffer(new byte[] {1})));
        assertTrue(out.tryWrite(Unpooled.wrappedBuffer(new byte[] {2})));
        CompletableFuture<Void> sent = out.whenSent();
        assertTrue(out.hasUnsent());
        assertFalse(sent.isDone(), "no credit yet: both frames wait");

        out.onCredit(0, 1);
        deliverWhatCreditAllows();
        assertEquals(List.of(1L), delivered);
        assertTrue(out.hasUnsent(), "frame 2 still waits for credit");
        assertFalse(sent.isDone());

        out.onCredit(0, 2);
        deliverWhatCreditAllows();
        assertEquals(List.of(1L, 2L), delivered);
        assertFalse(out.hasUnsent());
        assertTrue(sent.isDone(), "both frames left");

        assertTrue(out.tryWrite(Unpooled.wrappedBuffer(new byte[] {3})));
        assertTrue(out.hasUnsent(), "a later frame waits again");
        assertFalse(out.whenSent().isDone(), "a fresh wait after the first completed");
    }

    @Test
    void closingTheStreamReleasesTheWaiterAndLeavesNothingUnsent() {
        assertTrue(out.tryWrite(Unpooled.wrappedBuffer(new byte[] {1})));
        CompletableFuture<Void> sent = out.whenSent();
        assertFalse(sent.isDone());

        out.close(new IllegalStateException("the parent died"));

        assertTrue(sent.isDone(), "a waiter is never left behind");
        assertFalse(out.hasUnsent(), "a closed stream's frames are gone: nothing to wait for");
        assertTrue(out.whenSent().isDone());
    }

    /**
     * A rewind (a probe after a quiet spell, or a route change) makes sent frames "unsent" again; an acknowledgement of
     * all of them then moves the stream past its last frame without sending one. The waiter must be released then,
     * not at the next unrelated frame.
     */
    @Test
    void anAcknowledgementAfterARewindReleasesTheWaiter() {
        assertTrue(out.tryWrite(Unpooled.wrappedBuffer(new byte[] {1})));
        assertTrue(out.tryWrite(Unpooled.wrappedBuffer(new byte[] {2})));
        out.onCredit(0, 2);
        deliverWhatCreditAllows();
        assertFalse(out.hasUnsent());

        out.probe();
        assertTrue(out.hasUnsent(), "rewound to the first unacknowledged frame");
        CompletableFuture<Void> sent = out.whenSent();
        assertFalse(sent.isDone());

        out.onCredit(2, 4);
        assertTrue(sent.isDone(), "the receiver had both frames: nothing is left to send");
        assertFalse(out.hasUnsent());
    }

    private void deliverWhatCreditAllows() {
        while (out.deliverNext((seq, end, ack, payload) -> {
            delivered.add(seq);
            payload.release();
        })) {
            // as many as the credit allows
        }
    }
}
