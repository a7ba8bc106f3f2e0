package org.camdoop.shuffle.service;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.Arrays;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.camdoop.shuffle.service.net.CutMessages;
import org.camdoop.shuffle.service.net.MembershipMessages;
import org.camdoop.shuffle.service.net.ShuffleMessages;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.TorusNode;
import org.camdoop.torus.transport.wire.StreamId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where service messages from other daemons come in. On the transport's event loop it bounds the messages waiting,
 * acknowledges every START at once (repeated ones too); on a vertex thread it decodes and checks each message
 * (nothing a peer names outside the torus gets further) and hands it to the service.
 *
 * <p>Thread-safety: the counters are atomic; everything else is fixed at construction.
 */
final class ServiceInbox {

    private static final Logger LOG = LoggerFactory.getLogger(ServiceInbox.class);

    /** What the service does with a checked message. */
    interface Handler {
        void handle(Coord from, ShuffleMessages.Message message, byte[] bytes);
    }

    private final TorusNode node;
    private final TorusShape shape;
    private final Executor vertices;
    private final int maxPending;
    private final Handler handler;
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicLong dropped = new AtomicLong();
    /** The daemon plays dead ({@link CamdoopService#halt}): every message is dropped. */
    private volatile boolean closed;

    ServiceInbox(TorusNode node, Executor vertices, int maxPending, Handler handler) {
        this.node = node;
        this.shape = node.shape();
        this.vertices = vertices;
        this.maxPending = maxPending;
        this.handler = handler;
    }

    void close() {
        closed = true;
    }

    /** A service message arrived (event loop). */
    void onMessage(Coord from, StreamId id, ByteBuf payload) {
        if (closed) {
            payload.release();
            return;
        }
        if (pending.get() >= maxPending) {
            // Dropped before any acknowledgement: a START lost here is sent again by its root.
            payload.release();
            if (Long.bitCount(dropped.incrementAndGet()) == 1) {
                LOG.warn("service message {} from {} dropped: {} messages already wait for the vertex threads "
                        + "(camdoop.daemon.service.pending.max); {} dropped so far", id, from, maxPending,
                        dropped.get());
            }
            return;
        }
        byte[] bytes;
        try {
            bytes = ByteBufUtil.getBytes(payload);
        } finally {
            payload.release();
        }
        if (bytes.length > 0 && bytes[0] == ShuffleMessages.START && id.tree() == ControlTrees.CONTROL) {
            // Acknowledged here on the event loop, every time (duplicates included): the root re-sends START until it
            // hears back, and a busy vertex executor must not delay the answer into a flood of re-sends.
            // A START taken already still goes on: the daemon answers it with a fresh report of the map outputs it
            // holds (HELD), which its root asks for this way when a report was lost. Repeats are rare: a root sends
            // START again only to daemons silent for a second or more.
            node.sendService(from, id, Unpooled.wrappedBuffer(ShuffleMessages.startAck(id.job(), id.partition())));
        }
        pending.incrementAndGet();
        vertices.execute(() -> {
            try {
                check(from, bytes);
            } catch (RuntimeException e) {
                LOG.error("service message from {} failed; dropped", from, e);
            } finally {
                pending.decrementAndGet();
            }
        });
    }

    private void check(Coord from, byte[] bytes) {
        ShuffleMessages.Message m;
        try {
            m = ShuffleMessages.decode(bytes);
        } catch (IllegalArgumentException e) {
            LOG.warn("bad service message from {}: {}", from, e.getMessage());
            return;
        }
        if (m instanceof ShuffleMessages.Start s && !shape.contains(s.spec().root())) {
            LOG.warn("START of {} from {} names root {}, outside the torus {}; ignored", s.spec().describe(), from,
                    s.spec().root(), shape);
        } else if (m instanceof ShuffleMessages.Start s && !from.equals(s.spec().root())) {
            // Only a shuffle's root sends its START. A consistency check, not a defence: a neighbour holding the
            // cluster secret can write any source index into a frame it originates (docs/security.md).
            LOG.warn("START of {} from {}, not its root {}; ignored", s.spec().describe(), from, s.spec().root());
        } else if (m instanceof ShuffleMessages.Start s && !repairable(s.spec())) {
            LOG.warn("START of {} from {} repairs {}, which its trees on {} do not have; ignored", s.spec().describe(),
                    from, s.spec().generation().repair().orElseThrow(), shape);
        } else if (m instanceof ShuffleMessages.Start s && !inTorus(s.spec().generation().failed())) {
            LOG.warn("START of {} from {} names failed servers {}, outside the torus {}; ignored",
                    s.spec().describe(), from, Arrays.toString(s.spec().generation().failed()), shape);
        } else if (m instanceof CutMessages.Cut c && !inTorus(new int[] {c.parent(), c.failed()})) {
            LOG.warn("CUT from {} names vertices {} and {}, outside the torus {}; ignored", from, c.parent(),
                    c.failed(), shape);
        } else if (m instanceof MembershipMessages.ServerDown d && !inTorus(new int[] {d.run().server()})) {
            LOG.warn("SERVER_DOWN from {} names server {}, outside the torus {}; ignored", from, d.run().server(),
                    shape);
        } else if (m instanceof MembershipMessages.LinkCut c && !neighbours(c.link())) {
            LOG.warn("LINK_CUT from {} names servers {} and {}, not neighbours on the torus {}; ignored", from,
                    c.link().a(), c.link().b(), shape);
        } else if (m instanceof MembershipMessages.LinkUp u && !neighbours(u.link())) {
            LOG.warn("LINK_UP from {} names servers {} and {}, not neighbours on the torus {}; ignored", from,
                    u.link().a(), u.link().b(), shape);
        } else if (m instanceof MembershipMessages.View v && !viewNamesTorus(v)) {
            LOG.warn("VIEW from {} names servers outside the torus {} or links between non-neighbours; ignored", from,
                    shape);
        } else if (!closed) {
            handler.handle(from, m, bytes);
        }
    }

    /** Whether a repair START names a vertex and trees of its shuffle (the root's vertex is never repaired). */
    private boolean repairable(org.camdoop.shuffle.protocol.ShuffleSpec spec) {
        var repair = spec.generation().repair();
        if (repair.isEmpty()) {
            return true;
        }
        int v = repair.get().vertex();
        int trees = spec.trees().build(shape, shape.index(spec.root())).count();
        return inTorus(new int[] {v}) && v != shape.index(spec.root())
                && java.util.Arrays.stream(repair.get().trees()).allMatch(t -> t < trees);
    }

    private boolean neighbours(MembershipMessages.LinkRuns l) {
        return neighbours(l.a(), l.b());
    }

    private boolean viewNamesTorus(MembershipMessages.View v) {
        return v.failed().stream().allMatch(r -> inTorus(new int[] {r.server()}))
                && v.cuts().stream().allMatch(this::neighbours) && v.ups().stream().allMatch(this::neighbours);
    }

    private boolean neighbours(int a, int b) {
        return inTorus(new int[] {a, b}) && a != b && shape.portTo(a, b) != null;
    }

    private boolean inTorus(int[] servers) {
        return Arrays.stream(servers).allMatch(i -> i >= 0 && i < shape.size());
    }
}
