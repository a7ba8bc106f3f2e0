package org.camdoop.torus.transport.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;
import org.camdoop.torus.topology.Port;
import org.camdoop.torus.transport.stream.LinkScheduler;
import org.junit.jupiter.api.Test;

/** The caps on what a link holds for others: frames in transit and unsent service messages. */
class LinkBoundsTest {

    private static Link link(EmbeddedChannel ch, TransitAllowance allowance, long serviceCap) {
        Link l = new Link(Port.PLUS_X, 0, 1, null, null, ch.eventLoop(), new LinkScheduler(1024, job -> 1), null,
                new ReconnectBackoff(1_000_000, 10_000_000), new Link.Listener() {
                    @Override
                    public void linkUp(Link link) {
                    }

                    @Override
                    public void linkDown(Link link, String reason) {
                    }
                }, allowance, serviceCap);
        l.established(ch, 1L);
        return l;
    }

    private static ByteBuf frame(int bytes) {
        return Unpooled.buffer(bytes).writeZero(bytes);
    }

    @Test
    void framesInTransitBeyondTheCapAreRefusedAndTheQueuesEmptyAsTheyDrain() {
        EmbeddedChannel ch = new EmbeddedChannel();
        TransitAllowance allowance = new TransitAllowance(4096);
        Link l = link(ch, allowance, 1 << 20);
        // The send loop has not run yet (it is a task on the loop): frames pile up in transit.
        for (int i = 0; i < 4; i++) {
            assertTrue(l.forward(frame(1000), i % 2));
        }
        ByteBuf fifth = frame(1000);
        assertFalse(l.forward(fifth, 7), "a fifth kilobyte exceeds the 4096-byte transit cap");
        assertEquals(0, fifth.refCnt(), "a refused frame is released");
        assertEquals(4000, allowance.usedBytes());
        assertEquals(1, allowance.refused());
        assertEquals(2, l.transitQueues());
        ch.runPendingTasks();
        assertEquals(0, allowance.usedBytes(), "written frames give their bytes back");
        assertEquals(0, l.transitQueues(), "an emptied queue leaves the map: job ids cannot pile up");
        assertTrue(l.forward(frame(1000), 9), "room again");
        ch.runPendingTasks();
        assertTrue(ch.finishAndReleaseAll());
    }

    @Test
    void serviceMessagesToANeighbourThatStoppedReadingAreDroppedAtTheCap() {
        // A peer that stopped reading: nothing written ever leaves the connection's outbound buffer.
        EmbeddedChannel ch = new EmbeddedChannel(new ChannelOutboundHandlerAdapter() {
            @Override
            public void flush(ChannelHandlerContext ctx) {
            }
        });
        ch.config().setWriteBufferWaterMark(new WriteBufferWaterMark(8, 16));
        Link l = link(ch, new TransitAllowance(1 << 20), 4096);
        ch.writeAndFlush(frame(100));
        int sent = 0;
        for (int i = 0; i < 10; i++) {
            ByteBuf f = frame(1000);
            if (l.sendService(f) == Link.ServiceSend.SENT) {
                sent++;
            } else {
                assertEquals(0, f.refCnt(), "a dropped message is released");
            }
        }
        assertEquals(3, sent, "100 + 3 x 1000 bytes fit under 4096, a fourth message does not");
        ch.pipeline().removeFirst(); // the peer reads again: everything queued leaves
        ch.flush();
        assertTrue(ch.finishAndReleaseAll());
    }
}
