package org.camdoop.shuffle.service.pacing;

import java.util.function.LongSupplier;
import org.camdoop.shuffle.service.plan.StreamEdge;
import org.camdoop.shuffle.service.vertex.VertexOutput;
import org.camdoop.torus.transport.link.TokenBucket;

/**
 * Paces streams as if every server had one link to a non-blocking switch: an uplink and a downlink of
 * {@code bytesPerSecond} each, shared by all the streams the server sends (uplink) or receives (downlink). A chunk on a
 * stream from server a to server b may go when neither a's uplink nor b's downlink bucket is in debt; it is then
 * charged to both. This is the paper's "switch" baseline for direct mode, which the torus transport (links between
 * neighbours, forwarding) cannot express. Streams between vertices on one server are not paced.
 *
 * <p>Thread-safety: the buckets are shared by the vertex threads of every server and guarded by {@code lock}.
 */
public final class SwitchPacer implements StreamPacer {

    /** Runs a wake-up later: a ScheduledExecutorService in production, a manual queue in tests. */
    @FunctionalInterface
    public interface WakeScheduler {
        void wakeAfter(long nanos, Runnable wake);
    }

    private final Object lock = new Object();
    private final TokenBucket[] uplinks;
    private final TokenBucket[] downlinks;
    private final WakeScheduler scheduler;

    /**
     * @param servers        server indices the streams use, 0 .. servers-1
     * @param bytesPerSecond each server's switch link rate, per direction
     * @param burstBytes     bytes a link may send back to back after being idle
     * @param nanoClock      the time source of the buckets
     * @param scheduler      runs the wake-ups of outputs waiting for tokens
     */
    public SwitchPacer(int servers, long bytesPerSecond, long burstBytes, LongSupplier nanoClock,
            WakeScheduler scheduler) {
        if (servers < 1) {
            throw new IllegalArgumentException("servers must be >= 1: " + servers);
        }
        this.uplinks = new TokenBucket[servers];
        this.downlinks = new TokenBucket[servers];
        for (int s = 0; s < servers; s++) {
            uplinks[s] = new TokenBucket(nanoClock, bytesPerSecond, burstBytes);
            downlinks[s] = new TokenBucket(nanoClock, bytesPerSecond, burstBytes);
        }
        this.scheduler = scheduler;
    }

    @Override
    public VertexOutput pace(StreamEdge edge, VertexOutput output) {
        return edge.local() ? output : new PacedOutput(output, this, edge.senderHost(), edge.receiverHost());
    }

    /**
     * Takes {@code bytes} from {@code sender}'s uplink and {@code receiver}'s downlink if neither is in debt, and
     * returns 0; otherwise takes nothing and returns the nanoseconds until both are out of debt.
     */
    public long tryTake(int sender, int receiver, long bytes) {
        synchronized (lock) {
            TokenBucket up = uplinks[sender];
            TokenBucket down = downlinks[receiver];
            long wait = Math.max(up.nanosUntilReady(), down.nanosUntilReady());
            if (wait > 0) {
                return wait;
            }
            up.consume(bytes);
            down.consume(bytes);
            return 0;
        }
    }

    void wakeAfter(long nanos, Runnable wake) {
        scheduler.wakeAfter(nanos, wake);
    }
}
