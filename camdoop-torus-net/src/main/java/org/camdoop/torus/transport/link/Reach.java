package org.camdoop.torus.transport.link;

import io.netty.bootstrap.Bootstrap;
import java.net.SocketAddress;

/**
 * How one side of a link reaches the neighbour. The side with the lower index dials it with the link's own pipeline
 * ({@code dialer}). The other side never dials, but when a connection that was up drops it probes the neighbour's
 * address once ({@code prober}: a bare connection, closed at once, no handshake): a refusal means its daemon is gone,
 * which then counts as soon as on the dialing side. Without either (tests), the link only accepts.
 *
 * @param dialer  connects with the link's pipeline; {@code null} on the accepting side
 * @param prober  connects with a pipeline that does nothing; {@code null} on the dialing side
 * @param address the neighbour's daemon; {@code null} when not known (a topology without it): then neither happens
 */
public record Reach(Bootstrap dialer, Bootstrap prober, SocketAddress address) {

    public Reach {
        if (dialer != null && prober != null) {
            throw new IllegalArgumentException("a side of a link dials or probes, not both");
        }
    }

    /** Whether this side dials, knowing where. */
    boolean dials() {
        return dialer != null && address != null;
    }

    /** Whether this side probes after a drop, knowing where. */
    boolean probes() {
        return prober != null && address != null;
    }

    /** The lower-index side: dials {@code address} with {@code dialer}. */
    public static Reach dials(Bootstrap dialer, SocketAddress address) {
        return new Reach(dialer, null, address);
    }

    /** The higher-index side: accepts, and probes {@code address} with {@code prober} after a drop. */
    public static Reach probes(Bootstrap prober, SocketAddress address) {
        return new Reach(null, prober, address);
    }

    /** Accepts only (tests without a peer). */
    public static Reach acceptsOnly() {
        return new Reach(null, null, null);
    }
}
