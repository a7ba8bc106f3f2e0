package org.camdoop.torus.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.function.IntFunction;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.link.Link;
import org.camdoop.torus.transport.link.TransitAllowance;
import org.camdoop.torus.transport.wire.FrameLayout;
import org.camdoop.torus.transport.wire.MessageType;
import org.camdoop.torus.transport.wire.RoutedFrames;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Forwards routed frames addressed to other servers one hop along this node's routes: data into the link's per-job
 * transit queues (bounded by the node's {@link TransitAllowance}), control ahead of data. Drops, and counts, a frame
 * whose hop budget is spent, that has no route, or that the transit cap refuses. Owned by the node's event loop.
 */
final class TransitForwarder {

    private static final Logger LOG = LoggerFactory.getLogger(TransitForwarder.class);

    private final TorusShape shape;
    private final int self;
    /** The link of the next hop towards a server, or {@code null} when there is no route. */
    private final IntFunction<Link> nextLink;
    private final ServiceMessages services;
    private final TransitAllowance transit;
    private long dropped;
    private long transitRefusals;

    TransitForwarder(TorusShape shape, int self, IntFunction<Link> nextLink, ServiceMessages services,
            TransitAllowance transit) {
        this.shape = shape;
        this.self = self;
        this.nextLink = nextLink;
        this.services = services;
        this.transit = transit;
    }

    /** Frames dropped here. */
    long dropped() {
        return dropped;
    }

    /** Forwards {@code f} (owned) towards {@code dst}, which was checked to be a server of the torus. */
    void forward(ByteBuf f, int dst) {
        if (RoutedFrames.hops(f) == 0) {
            dropped++;
            LOG.warn("frame for server {} ran out of hops at {}; dropped", shape.coord(dst), shape.coord(self));
            f.release();
            return;
        }
        Link l = nextLink.apply(dst);
        if (l == null) {
            dropped++;
            f.release();
            return;
        }
        RoutedFrames.decrementHops(f);
        MessageType type = RoutedFrames.type(f);
        if (type != MessageType.DATA && type != MessageType.END) {
            // Control in transit (SERVICE, CREDIT, URGENT: small, credit-free) goes ahead of data, as it does on its
            // first hop. Queued with its job's data it waited behind every urgent stream of a busy link, so a START or
            // its acknowledgement two hops away could miss the root's whole wait (BoundedMemoryTest, 100 shuffles).
            // The decoded frame has lost its length prefix: put it back in front.
            ByteBuf prefix = f.alloc().ioBuffer(FrameLayout.LENGTH_FIELD).writeInt(f.readableBytes());
            ByteBuf frame = Unpooled.wrappedBuffer(prefix, f);
            if (type == MessageType.SERVICE) {
                services.noteSend(l.sendService(frame), dst, l); // bounded by the link's service queue cap
            } else {
                l.sendControl(frame);
            }
            return;
        }
        if (!l.forward(f, f.getLong(f.readerIndex() + FrameLayout.JOB))) {
            dropped++;
            if (Long.bitCount(++transitRefusals) == 1) { // the 1st, 2nd, 4th, 8th... refusal: loud but not a flood
                LOG.warn("frame for server {} refused at {}: {} bytes already wait in transit, the cap ({}); "
                        + "{} refused so far", shape.coord(dst), shape.coord(self), transit.usedBytes(),
                        transit.maxBytes(), transitRefusals);
            }
        }
    }
}
