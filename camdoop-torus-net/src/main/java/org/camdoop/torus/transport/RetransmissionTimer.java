package org.camdoop.torus.transport;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.Collection;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.camdoop.torus.transport.stream.InboundStream;
import org.camdoop.torus.transport.stream.OutboundStream;

/**
 * End-to-end repair of streams whose frames or credit were lost in transit, e.g. on a link that broke and came back
 * in the middle of a multi-hop path (a hop drops its transit queue with the connection, and no view change tells the
 * ends). Every half {@code camdoop.transport.retransmit.timeout.ms} it ticks every stream of the node: an outbound
 * stream whose frames went two ticks unacknowledged probes (sends its first unacknowledged frame again, asking for an
 * acknowledgement, and the rest only if the answer shows them missing; then waits twice as long before the next
 * probe, up to 64 ticks, until an acknowledgement comes), an inbound stream that heard nothing for two ticks repeats
 * its announcement. A receiver answers a duplicate at once with where it stands, so a timeout that fired only because
 * the receiver is slow (a loaded daemon, whose acknowledgements wait for its consumer) costs one frame and one
 * announcement, not a window of duplicates.
 * Owned by the node's event loop.
 */
final class RetransmissionTimer {

    private final EventLoop loop;
    private final int self;
    private final long timeoutNanos;
    private final long tickNanos;
    private final Supplier<Collection<OutboundStream>> outbound;
    private final Supplier<Collection<InboundStream>> inbound;
    private final Consumer<OutboundStream> resend;
    private ScheduledFuture<?> task;

    /**
     * @param resend takes a stream off its link queues and probes from its last acknowledgement
     */
    RetransmissionTimer(EventLoop loop, int self, long timeoutNanos, Supplier<Collection<OutboundStream>> outbound,
            Supplier<Collection<InboundStream>> inbound, Consumer<OutboundStream> resend) {
        this.loop = loop;
        this.self = self;
        this.timeoutNanos = timeoutNanos;
        this.tickNanos = Math.max(1, timeoutNanos / 2);
        this.outbound = outbound;
        this.inbound = inbound;
        this.resend = resend;
    }

    /** Starts ticking, unless the timeout is 0 (off). */
    void start() {
        if (timeoutNanos <= 0) {
            return;
        }
        task = loop.scheduleAtFixedRate(this::tick, tickNanos, tickNanos, TimeUnit.NANOSECONDS);
    }

    void stop() {
        if (task != null) {
            task.cancel(false);
        }
    }

    private void tick() {
        // Streams between two vertices of this node never cross a link: nothing of theirs can be lost, and a local
        // resend would hand the receiver frames it already owns.
        for (OutboundStream s : outbound.get()) {
            if (s.destination() != self && s.unacknowledgedTooLong()) {
                resend.accept(s);
            }
        }
        for (InboundStream s : inbound.get()) {
            if (s.sender() != self) {
                s.retransmissionTick();
            }
        }
    }
}
