package org.camdoop.torus.transport.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import org.camdoop.torus.transport.wire.StreamId;
import org.junit.jupiter.api.Test;

/**
 * A frame that arrives past a gap is dropped, and the receiver asks its sender for the lost ones once per acknowledged
 * position: the frames sent after the lost ones arrive past the gap too, and must not each ask again.
 */
class InboundGapTest {

    @Test
    void aGapIsReportedOncePerAcknowledgedPosition() {
        EmbeddedChannel loop = new EmbeddedChannel();
        List<Long> gapsAt = new ArrayList<>();
        List<Long> delivered = new ArrayList<>();
        InboundStream in = new InboundStream(new StreamId(1, 0, 0, 0), 0, new InboundHandler() {
            @Override
            public void onData(InboundStream s, long seq, ByteBuf data) {
                data.release();
                delivered.add(seq);
                s.release(1);
            }

            @Override
            public void onEnd(InboundStream s, ByteBuf payload) {
                payload.release();
            }
        }, new BufferBudget(1024 * 1024, 1024, 2, 64), loop.eventLoop(), new CreditSink() {
            @Override
            public void credit(int sender, StreamId id, long acked, long limit) {
            }

            @Override
            public void gap(int sender, StreamId id, long acked, long limit) {
                gapsAt.add(acked);
            }

            @Override
            public void urgent(int sender, StreamId id, boolean urgent) {
            }

            @Override
            public void closed(InboundStream stream) {
            }
        }, 16);
        loop.runPendingTasks();
        in.open();
        for (long seq : new long[] {1, 2, 5, 6, 7}) { // 3 and 4 lost on the way
            in.onData(seq, false, Unpooled.buffer(1).writeByte(1));
        }
        assertEquals(List.of(2L), gapsAt, "one report for the gap after 2, not one per frame past it");
        for (long seq : new long[] {3, 4, 5, 6, 7, 9}) { // resent from 3; then 8 lost
            in.onData(seq, false, Unpooled.buffer(1).writeByte(1));
        }
        assertEquals(List.of(2L, 7L), gapsAt, "a gap at a new position is reported again");
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L), delivered);
        assertEquals(2, in.gapsReported());
        loop.runPendingTasks();
        loop.finishAndReleaseAll();
    }
}
