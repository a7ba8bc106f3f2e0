package org.camdoop.torus.transport;

import io.netty.buffer.ByteBuf;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.wire.RoutedFrames;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first check of a routed frame from a neighbour: its source and destination indices lie inside the torus, before
 * either is used (docs/protocol.md, "Validation of routed headers"). A frame that fails it is logged the 1st, 2nd, 4th,
 * 8th... time: loud, but a flood of them cannot flood the log.
 *
 * <p>Not thread-safe: owned by the node's event loop.
 */
final class RoutedIndexCheck {

    private static final Logger LOG = LoggerFactory.getLogger(NodeRouter.class);

    private final TorusShape shape;
    private long refused;

    RoutedIndexCheck(TorusShape shape) {
        this.shape = shape;
    }

    /** Whether frame {@code f}, from neighbour {@code from}, names servers of the torus; if not, logs it. */
    boolean admit(int from, ByteBuf f) {
        int src = RoutedFrames.src(f);
        int dst = RoutedFrames.dst(f);
        if (src >= 0 && src < shape.size() && dst >= 0 && dst < shape.size()) {
            return true;
        }
        if (Long.bitCount(++refused) == 1) {
            LOG.warn("{} frame from neighbour {} names server indices {} -> {}, outside the torus {} (0..{}); "
                    + "dropped ({} so far)", RoutedFrames.type(f), shape.coord(from), src, dst, shape,
                    shape.size() - 1, refused);
        }
        return false;
    }
}
