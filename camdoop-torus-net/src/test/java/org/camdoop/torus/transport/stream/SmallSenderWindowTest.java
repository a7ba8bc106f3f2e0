package org.camdoop.torus.transport.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import org.camdoop.torus.transport.wire.StreamId;
import org.junit.jupiter.api.Test;

/**
 * A sender whose daemon can lend it fewer buffers than the receiver's announcement batch: the receiver alone would
 * acknowledge only after a batch, which never arrives, so the sender asks ({@code FLAG_ACK_REQUESTED}) once three
 * quarters of its buffers await acknowledgement. The two ends are wired directly (the local fast path's shape), each
 * with its own budget, on one embedded event loop run by the test.
 */
class SmallSenderWindowTest {

    private static final StreamId ID = new StreamId(1, 0, 0, 0);
    private static final int FRAMES = 200;

    @Test
    void aSenderWithTwoBuffersNeverWaitsForABatchOfSixteen() throws Exception {
        EmbeddedChannel loop = new EmbeddedChannel();
        BufferBudget senderBudget = new BufferBudget(4 * 1024, 1024, 2, Integer.MAX_VALUE);
        BufferBudget receiverBudget = new BufferBudget(1024 * 1024, 1024, 2, Integer.MAX_VALUE);
        List<Long> delivered = new ArrayList<>();
        List<Boolean> asked = new ArrayList<>();
        InboundStream[] in = new InboundStream[1];
        OutboundStream out = new OutboundStream(ID, 1, 1024, senderBudget, loop.eventLoop(), s -> {
            while (s.deliverNext((seq, end, ackRequested, payload) -> {
                if (end) {
                    in[0].onEnd(seq, payload);
                } else {
                    asked.add(ackRequested);
                    in[0].onData(seq, ackRequested, payload);
                }
            })) {
                // deliver while credit lasts
            }
        });
        in[0] = new InboundStream(ID, 0, new InboundHandler() {
            @Override
            public void onData(InboundStream s, long seq, ByteBuf data) {
                delivered.add(seq);
                data.release();
                s.release(1);
            }

            @Override
            public void onEnd(InboundStream s, ByteBuf payload) {
                payload.release();
            }
        }, receiverBudget, loop.eventLoop(), new CreditSink() {
            @Override
            public void credit(int sender, StreamId id, long acked, long limit) {
                out.onCredit(acked, limit);
            }

            @Override
            public void urgent(int sender, StreamId id, boolean urgent) {
            }

            @Override
            public void closed(InboundStream stream) {
            }
        }, 16);
        loop.runPendingTasks();
        in[0].open();
        int written = 0;
        int mostHeld = 0;
        for (int round = 0; round < 10 * FRAMES && written < FRAMES; round++) {
            while (written < FRAMES && out.tryWrite(Unpooled.wrappedBuffer(new byte[] {(byte) written}))) {
                written++;
                mostHeld = Math.max(mostHeld, out.heldBuffers());
            }
            loop.runPendingTasks();
        }
        assertEquals(FRAMES, written, "the writer stalled: an acknowledgement it needed never came");
        out.end(Unpooled.EMPTY_BUFFER);
        loop.runPendingTasks();
        assertEquals(FRAMES, delivered.size());
        for (int i = 0; i < FRAMES; i++) {
            assertEquals(i + 1, delivered.get(i), "in order, once each");
        }
        assertTrue(out.completion().isDone() && !out.completion().isCompletedExceptionally(), "END acknowledged");
        assertEquals(2, mostHeld, "the sender held its two buffers, never more");
        assertTrue(asked.contains(true), "the sender asked for acknowledgements");
        loop.finishAndReleaseAll();
    }
}
