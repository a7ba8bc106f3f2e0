package org.camdoop.torus.transport;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.stream.InboundStream;
import org.camdoop.torus.transport.stream.OutboundStream;
import org.camdoop.torus.transport.wire.StreamId;

/**
 * The streams open on a node, each end by its id, and the credit that arrived for an outbound stream before its sender
 * opened it (a receiver may open its end first), applied when it is added. Early credit is merged by maximum, as
 * credit is positional, and bounded, since a peer can name streams that never open (beyond the bound it is dropped,
 * and the receiver's next announcement repeats it).
 *
 * <p>Not thread-safe: owned by the node's event loop.
 */
final class StreamTable {

    static final int MAX_EARLY_CREDIT = 65_536;

    private final Map<StreamId, OutboundStream> outbound = new HashMap<>();
    private final Map<StreamId, InboundStream> inbound = new HashMap<>();
    private final Map<StreamId, long[]> earlyCredit = new HashMap<>();

    /** Adds {@code s} and applies the credit that came for it first; false (and {@code s} closed) if its id is taken. */
    boolean add(OutboundStream s) {
        if (outbound.putIfAbsent(s.id(), s) != null) {
            s.close(new IllegalStateException("an outbound stream " + s.id() + " is already open"));
            return false;
        }
        long[] early = earlyCredit.remove(s.id());
        if (early != null) {
            s.onCredit(early[0], early[1]);
        }
        return true;
    }

    /** Adds {@code s}; false if an inbound stream of its id is open already. */
    boolean add(InboundStream s) {
        return inbound.putIfAbsent(s.id(), s) == null;
    }

    void remove(OutboundStream s) {
        outbound.remove(s.id(), s);
    }

    void remove(InboundStream s) {
        inbound.remove(s.id(), s);
    }

    OutboundStream outbound(StreamId id) {
        return outbound.get(id);
    }

    InboundStream inbound(StreamId id) {
        return inbound.get(id);
    }

    /** A copy: what is done to each may close it, and a closed stream leaves the table. */
    List<OutboundStream> outbounds() {
        return new ArrayList<>(outbound.values());
    }

    /** A copy, as {@link #outbounds}. */
    List<InboundStream> inbounds() {
        return new ArrayList<>(inbound.values());
    }

    /** CREDIT(acked, limit) for outbound stream {@code id}, not open yet: kept until it is added. */
    void creditEarly(StreamId id, long acked, long limit) {
        if (earlyCredit.size() < MAX_EARLY_CREDIT) {
            earlyCredit.merge(id, new long[] {acked, limit},
                    (a, b) -> new long[] {Math.max(a[0], b[0]), Math.max(a[1], b[1])});
        }
    }

    /** For diagnostics: a line per open stream, with its state. */
    List<String> describe(TorusShape shape) {
        List<String> out = new ArrayList<>();
        outbound.values().forEach(s -> out.add("out " + s.id() + " to " + shape.coord(s.destination()) + ": "
                + s.describe()));
        inbound.values().forEach(s -> out.add("in " + s.id() + " from " + shape.coord(s.sender()) + ": "
                + s.describe()));
        return out;
    }

    /** Closes every stream: outbound ones with {@code why} as the cause. */
    void closeAll(String why) {
        outbounds().forEach(s -> s.close(new IllegalStateException(why)));
        inbounds().forEach(InboundStream::close);
    }
}
