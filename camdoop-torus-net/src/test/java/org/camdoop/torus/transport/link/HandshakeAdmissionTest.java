package org.camdoop.torus.transport.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

/**
 * Found by review: nothing bounded the accepted connections still in their handshake, each holding a channel, a
 * partial frame and a timer for the handshake timeout. Now one over the cap is closed at once.
 */
class HandshakeAdmissionTest {

    @Test
    void oneOverTheCapIsClosedAndAHandshakeThatEndsOrClosesGivesItsPlaceBack() {
        HandshakeAdmission admission = new HandshakeAdmission(2);
        java.util.List<Object> events = new java.util.ArrayList<>();
        EmbeddedChannel first = new EmbeddedChannel(admission.newHandler(), new ChannelInboundHandlerAdapter() {
            @Override
            public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                events.add(evt);
            }
        });
        EmbeddedChannel second = new EmbeddedChannel(admission.newHandler());
        EmbeddedChannel third = new EmbeddedChannel(admission.newHandler());
        assertTrue(first.isOpen() && second.isOpen());
        assertFalse(third.isOpen(), "over the cap: closed unanswered");
        assertNull(third.readOutbound());
        assertEquals(2, admission.inProgress());

        first.pipeline().fireUserEventTriggered(new LinkEstablished(1, 7));
        assertEquals(java.util.List.of(new LinkEstablished(1, 7)), events, "the event goes on to the link handler");
        assertEquals(1, admission.inProgress(), "an established link is no longer in its handshake");
        assertTrue(new EmbeddedChannel(admission.newHandler()).isOpen());
        assertEquals(2, admission.inProgress());

        second.close();
        first.close(); // established already: not counted twice
        assertEquals(1, admission.inProgress());
        assertTrue(new EmbeddedChannel(admission.newHandler()).isOpen());
    }
}
