package org.camdoop.torus.transport.stream;

import org.camdoop.torus.transport.wire.StreamId;

/** Where an inbound stream's announcements go: to the sender over the network, or straight to a local sender. */
public interface CreditSink {

    /** Event loop: send CREDIT(acked, limit) for {@code id} to server {@code sender}. */
    void credit(int sender, StreamId id, long acked, long limit);

    /**
     * Event loop: as {@link #credit}, telling the sender that frames after {@code acked} were lost on the way (one
     * arrived past a gap), so it resends them at once. By default a plain announcement: the retransmission timer then
     * repairs.
     */
    default void gap(int sender, StreamId id, long acked, long limit) {
        credit(sender, id, acked, limit);
    }

    /** Event loop: send URGENT for {@code id} to server {@code sender}. */
    void urgent(int sender, StreamId id, boolean urgent);

    /** Event loop: the stream finished and released its buffers; forget it. */
    void closed(InboundStream stream);
}
