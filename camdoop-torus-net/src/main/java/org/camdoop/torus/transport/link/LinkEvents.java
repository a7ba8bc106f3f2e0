package org.camdoop.torus.transport.link;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;

/** What a link's channel reports to the node that owns it. Every call is made on the channel's event loop. */
public interface LinkEvents {

    /** The handshake with neighbour {@code peer} (its daemon at {@code peerIncarnation}) succeeded on {@code ch}. */
    void established(Channel ch, int peer, long peerIncarnation);

    /** A routed frame (DATA, END, CREDIT, URGENT) arrived from {@code peer}; ownership passes to the callee. */
    void routedFrame(int peer, ByteBuf frame);

    /** {@code ch}, established with {@code peer}, became writable again. */
    void writable(Channel ch, int peer);

    /**
     * {@code ch}, established with {@code peer}, closed; {@code reason} is {@link Link#REASON_PEER_SHUT_DOWN} when the
     * peer announced its shutdown first, else {@link Link#REASON_CONNECTION_CLOSED}.
     */
    void closed(Channel ch, int peer, String reason);

    /** A handshake on {@code ch} failed, refused by either side: the connection closes and its link retries. */
    default void refused(Channel ch, String reason) {
    }
}
