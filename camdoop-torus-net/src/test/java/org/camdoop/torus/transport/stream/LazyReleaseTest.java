package org.camdoop.torus.transport.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import org.camdoop.torus.transport.wire.StreamId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The receiving end takes buffers given back lazily ({@link InboundStream}'s class comment): a release below the
 * threshold wakes no event loop and waits for the next frame; a sender low on credit, acknowledgements and the END
 * are never kept waiting. One embedded event loop, run by the test, so "woke the loop" is "queued a task".
 */
class LazyReleaseTest {

    private static final StreamId ID = new StreamId(1, 0, 0, 0);

    private EmbeddedChannel loop;
    private InboundStream in;
    private final List<ByteBuf> held = new ArrayList<>();
    /** Announcements sent, as {acked, limit}. */
    private final List<long[]> credits = new ArrayList<>();
    private boolean closed;

    @BeforeEach
    void open() {
        loop = new EmbeddedChannel();
        // A pool of 1024 buffers and a window of 64: a batch is 16.
        BufferBudget budget = new BufferBudget(1024 * 1024, 1024, 2, 64);
        in = new InboundStream(ID, 0, new InboundHandler() {
            @Override
            public void onData(InboundStream s, long seq, ByteBuf data) {
                held.add(data);
            }

            @Override
            public void onEnd(InboundStream s, ByteBuf payload) {
                payload.release();
            }
        }, budget, loop.eventLoop(), new CreditSink() {
            @Override
            public void credit(int sender, StreamId id, long acked, long limit) {
                credits.add(new long[] {acked, limit});
            }

            @Override
            public void urgent(int sender, StreamId id, boolean urgent) {
            }

            @Override
            public void closed(InboundStream stream) {
                closed = true;
            }
        }, 16);
        loop.runPendingTasks();
        in.open();
        assertEquals(64, credits.get(0)[1], "a window of 64");
    }

    @AfterEach
    void close() {
        held.forEach(ByteBuf::release);
        loop.finishAndReleaseAll();
    }

    private void frames(long from, long to) {
        for (long seq = from; seq <= to; seq++) {
            in.onData(seq, false, Unpooled.buffer(1).writeByte(1));
        }
    }

    /** The consumer gives back {@code n} buffers, one call each; true if that queued a task on the loop. */
    private boolean giveBack(int n) {
        loop.runPendingTasks();
        for (int i = 0; i < n; i++) {
            held.remove(0).release();
            in.release(1);
        }
        boolean woke = loop.hasPendingTasks();
        loop.runPendingTasks();
        return woke;
    }

    @Test
    void releasesBelowABatchWakeNoLoopAndAreTakenInWithTheNextFrame() {
        frames(1, 30);
        assertFalse(giveBack(5), "5 of a batch of 16, the sender holds 34 frames of credit: no wake-up");
        assertEquals(30, in.heldBuffers(), "not taken in yet");
        frames(31, 31);
        assertEquals(26, in.heldBuffers(), "taken in when frame 31 arrived");
        assertFalse(giveBack(15), "15 given back since: still below a batch...");
        assertTrue(giveBack(1), "...and the 16th wakes the loop");
        assertEquals(10, in.heldBuffers());
    }

    @Test
    void aSenderLowOnCreditHearsOfEachBufferGivenBack() {
        frames(1, 49);
        assertTrue(giveBack(1), "15 frames of credit left, less than a batch: the first release wakes the loop");
        assertEquals(48, in.heldBuffers());
    }

    @Test
    void aBatchOfFramesIsAcknowledgedAsItArrivesWithoutAnyRelease() {
        int before = credits.size();
        frames(1, 15);
        assertEquals(before, credits.size(), "15 frames: less than a batch of news");
        frames(16, 16);
        assertEquals(before + 1, credits.size(), "the 16th frame is acknowledged on arrival, nothing given back");
        assertEquals(16, credits.get(credits.size() - 1)[0]);
    }

    @Test
    void anAcknowledgementAskedForGoesOutOnTheFramesArrival() {
        int before = credits.size();
        in.onData(1, true, Unpooled.buffer(1).writeByte(1));
        assertEquals(before + 1, credits.size(), "answered on arrival");
        assertEquals(1, credits.get(credits.size() - 1)[0]);
    }

    @Test
    void afterTheEndEachBufferGivenBackIsTakenInAndTheLastClosesTheStream() {
        frames(1, 3);
        assertFalse(giveBack(1), "below a batch");
        in.onEnd(4, Unpooled.EMPTY_BUFFER);
        assertEquals(2, in.heldBuffers(), "the release pending at the END was taken in with it");
        assertTrue(giveBack(1), "after the END every release wakes the loop");
        assertFalse(closed);
        assertTrue(giveBack(1));
        assertTrue(closed, "the last buffer given back finished the stream");
    }
}
