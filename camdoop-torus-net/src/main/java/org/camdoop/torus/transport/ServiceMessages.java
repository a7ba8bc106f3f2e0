package org.camdoop.torus.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.util.function.IntFunction;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.link.Link;
import org.camdoop.torus.transport.wire.FrameWriter;
import org.camdoop.torus.transport.wire.MessageType;
import org.camdoop.torus.transport.wire.StreamId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's SERVICE messages: the layer above's own messages between daemons, sent without credit and best effort
 * (dropped and counted when there is no route, the link is down or its service queue is full), and delivered here to
 * the {@link ServiceHandler}. Owned by the node's event loop.
 *
 * <p>One service stream belongs to the transport itself and never reaches the handler: tree {@link #REACHABILITY}
 * carries the failure detector's probes. An ask is one byte, {@link #ASK}; a node answers every ask at once, to its
 * sender, with {@link #ANSWER} and its incarnation (i64): an answer from another run than the one suspected tells the
 * asker that run is dead.
 */
final class ServiceMessages {

    private static final Logger LOG = LoggerFactory.getLogger(ServiceMessages.class);

    /** The service stream tree number of reachability probes (the layer above numbers its own below it). */
    static final int REACHABILITY = 253;
    static final byte ASK = 1;
    static final byte ANSWER = 2;

    private final TorusShape shape;
    private final int self;
    /** Told of each answer to a probe: the answering server and its incarnation. */
    interface Answered {
        void answered(int server, long incarnation);
    }

    private final long incarnation;
    private final Answered answered;
    /** The stream this node's asks and answers travel as. */
    private final StreamId reachability;
    /** The link of the next hop towards a server, or {@code null} when there is no route. */
    private final IntFunction<Link> nextLink;
    private ServiceHandler handler;
    private long dropped;
    private long queueRefusals;
    private long noRoute;

    ServiceMessages(TorusShape shape, int self, long incarnation, IntFunction<Link> nextLink, Answered answered) {
        this.shape = shape;
        this.self = self;
        this.incarnation = incarnation;
        this.nextLink = nextLink;
        this.answered = answered;
        this.reachability = new StreamId(0, 0, REACHABILITY, self);
    }

    /** Asks server {@code dst} whether it is alive; its answer goes to the consumer given at construction. */
    void probe(int dst) {
        if (nextLink.apply(dst) == null) {
            return; // every link to it is routed around: it is unreachable, and the detector declares it so in time
        }
        send(dst, reachability, 0, Unpooled.wrappedBuffer(new byte[] {ASK}));
    }

    void setHandler(ServiceHandler handler) {
        this.handler = handler;
    }

    /** Messages dropped here (no route, no handler, handler failed, link down or full). */
    long dropped() {
        return dropped;
    }

    /** Sends a service message (owns {@code payload}). */
    void send(int dst, StreamId id, long seq, ByteBuf payload) {
        if (dst == self) {
            deliver(self, id, payload);
            return;
        }
        Link l = nextLink.apply(dst);
        if (l == null) {
            dropped++;
            // A server whose every link is routed around has no route until it is declared failed (half the failure
            // timeout later), and every message to it lands here meanwhile: loud, but not once per message.
            if (Long.bitCount(++noRoute) == 1) { // the 1st, 2nd, 4th, 8th...
                LOG.warn("service message for {} dropped at {}: no route; {} dropped for want of a route so far",
                        shape.coord(dst), shape.coord(self), noRoute);
            }
            payload.release();
            return;
        }
        ByteBuf header = FrameWriter.sequencedHeader(ByteBufAllocator.DEFAULT, MessageType.SERVICE, self, dst, id, seq,
                payload.readableBytes());
        noteSend(l.sendService(Unpooled.wrappedBuffer(header, payload)), dst, l);
    }

    /** A message addressed here; {@code from} was checked to be a server of the torus. Owns {@code payload}. */
    void deliver(int from, StreamId id, ByteBuf payload) {
        if (id.tree() == REACHABILITY) {
            int n = payload.readableBytes();
            byte kind = n == 1 || n == 1 + Long.BYTES ? payload.getByte(payload.readerIndex()) : 0;
            long answerer = n == 1 + Long.BYTES ? payload.getLong(payload.readerIndex() + 1) : 0;
            payload.release();
            if (kind == ASK && n == 1) {
                send(from, reachability, 0, Unpooled.buffer(1 + Long.BYTES).writeByte(ANSWER).writeLong(incarnation));
            } else if (kind == ANSWER && n == 1 + Long.BYTES) {
                answered.answered(from, answerer);
            } else {
                dropped++;
                LOG.warn("reachability message from {} is neither an ask (1 byte) nor an answer (9 bytes); dropped",
                        shape.coord(from));
            }
            return;
        }
        ServiceHandler h = handler;
        if (h == null) {
            dropped++;
            LOG.warn("service message {} from {} dropped: no service handler", id, shape.coord(from));
            payload.release();
            return;
        }
        try {
            h.onMessage(shape.coord(from), id, payload);
        } catch (RuntimeException e) {
            // The layer above failed on one message: that message is lost, the link and every other job are not.
            dropped++;
            LOG.error("service handler failed on message {} from {}; message dropped", id, shape.coord(from), e);
        }
    }

    /** Counts and logs a service message the link did not take (quietly when the link is down, throttled when full). */
    void noteSend(Link.ServiceSend sent, int dst, Link l) {
        if (sent == Link.ServiceSend.LINK_DOWN) {
            dropped++;
            LOG.debug("service message for {} dropped at {}: link {} is down", shape.coord(dst), shape.coord(self),
                    l.port().label());
        } else if (sent == Link.ServiceSend.QUEUE_FULL) {
            dropped++;
            if (Long.bitCount(++queueRefusals) == 1) { // the 1st, 2nd, 4th, 8th...: loud but not a flood
                LOG.warn("service message for {} dropped at {}: link {} already holds more than its service queue cap"
                        + " of unsent bytes; {} dropped so far", shape.coord(dst), shape.coord(self), l.port().label(),
                        queueRefusals);
            }
        }
    }
}
