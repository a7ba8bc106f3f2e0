package org.camdoop.shuffle.service;

import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.camdoop.shuffle.protocol.JarDigest;
import org.camdoop.shuffle.service.net.SpecMessages;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.TorusNode;
import org.camdoop.torus.transport.wire.FrameLayout;
import org.camdoop.torus.transport.wire.StreamId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cooperative broadcast of a job's spec and jars (Orchestra's Cornet, along a spanning tree): the daemon that starts a
 * shuffle sends SPEC and JAR_PART messages ({@link SpecMessages}) to its children in the {@link BroadcastTree} rooted
 * at itself; every daemon forwards each message unchanged to its own children in that tree as it arrives, so each tree
 * link carries every byte once, and meanwhile assembles the jars it lacks, caches them (digest checked) and registers
 * the job ({@link JobDistribution#admit}) once its jars are all present. A daemon that already serves the job only
 * forwards. The {@link Listener} hears when a job becomes known or is refused.
 *
 * <p>Bounded: at most {@link #MAX_JOBS_IN_FLIGHT} jobs being received, {@link #MAX_BYTES_IN_FLIGHT} bytes of jars
 * being assembled; a reception untouched for twice the spec wait is dropped; {@link #forget} drops a job's state when
 * it ends. A job is broadcast once per origin and failure view.
 *
 * <p>Repair: a message lost on the way (a daemon that died before it forwarded, a dropped frame) leaves a subtree
 * without the job. Each daemon holding a START of a job it lacks asks the START's root ({@link #request}); the root
 * answers it alone ({@link #onSpecRequest}), at most once per asking daemon and job every {@link #answerIntervalNanos}.
 * Every daemon of the torus receives every job's spec by the broadcast anyway, so answering any daemon that asks
 * exposes nothing new; the answers are bounded in number as above.
 *
 * <p>Thread-safety: messages are handled on the service's vertex threads, several at a time. {@link #lock} guards
 * {@link #receiving}, {@link #broadcast}, {@link #refused}, {@link #answered} and {@link #bytesInFlight}; jar caching
 * and job admission run outside it. Counters are atomics.
 */
public final class SpecBroadcast {

    private static final Logger LOG = LoggerFactory.getLogger(SpecBroadcast.class);
    static final int MAX_JOBS_IN_FLIGHT = 64;
    static final long MAX_BYTES_IN_FLIGHT = 512L << 20;
    private static final int MAX_REFUSALS_KEPT = 256;
    private static final int MAX_ANSWERS_KEPT = 1024;

    /** Hears the outcome of receiving a job. Called on a vertex thread, outside the broadcast's lock. */
    interface Listener {
        void known(String jobId);

        void refused(String jobId, String reason);
    }

    /** Message counts of this daemon since it started. */
    public record Counters(long specsSent, long jarPartsSent, long specsReceived, long jarPartsReceived) {
    }

    /** A jar being assembled from its parts; guarded by the broadcast's lock. */
    private static final class Assembly {
        final byte[] bytes;
        /** Offsets of the parts received (parts from one origin never overlap). */
        final Map<Long, Integer> parts = new HashMap<>();
        long received;

        Assembly(long total) {
            this.bytes = new byte[(int) total];
        }

        boolean complete() {
            return received == bytes.length;
        }
    }

    /** A job being received; guarded by the broadcast's lock. */
    private static final class Reception {
        byte[] spec;
        final Map<JarDigest, Assembly> jars = new HashMap<>();
        long touchedNanos = System.nanoTime();
    }

    private final TorusNode node;
    private final TorusShape shape;
    private final Supplier<FailureView> view;
    private final JobDistribution jobs;
    private final Listener listener;
    private final long staleNanos;
    private final Object lock = new Object();
    /** Job id to what has arrived of it. Guarded by {@link #lock}. */
    private final Map<String, Reception> receiving = new HashMap<>();
    /** Jobs this daemon broadcast as origin, and the view it used. Guarded by {@link #lock}. */
    private final Map<String, FailureView> broadcast = new HashMap<>();
    /** Jobs refused here and why, oldest first, at most {@link #MAX_REFUSALS_KEPT}. Guarded by {@link #lock}. */
    private final Map<String, String> refused = new LinkedHashMap<>();
    /** Waiting for a job's refusal ({@link #whenRefused}), by job id. Guarded by {@link #lock}. */
    private final Map<String, CompletableFuture<String>> refusalWaiters = new HashMap<>();
    /** When each (job, asking daemon) was last answered, oldest first, at most {@link #MAX_ANSWERS_KEPT}. Guarded. */
    private final Map<String, Long> answered = new LinkedHashMap<>();
    private final long answerIntervalNanos;
    /** Bytes allocated to assemblies. Guarded by {@link #lock}. */
    private long bytesInFlight;
    /** The last tree used, reused while origin and view stay the same. Guarded by {@link #lock}. */
    private BroadcastTree lastTree;
    private final AtomicLong specsSent = new AtomicLong();
    private final AtomicLong jarPartsSent = new AtomicLong();
    private final AtomicLong specsReceived = new AtomicLong();
    private final AtomicLong jarPartsReceived = new AtomicLong();
    /** Test hook: when set, this daemon sends and forwards nothing. Volatile: set by a test thread. */
    private volatile boolean muted;

    /** @param view the service's current failure view, read for each forwarded message */
    SpecBroadcast(TorusNode node, Supplier<FailureView> view, JobDistribution jobs, long specWaitMs,
            Listener listener) {
        this.node = node;
        this.view = view;
        this.shape = node.shape();
        this.jobs = jobs;
        this.listener = listener;
        this.staleNanos = 2_000_000L * specWaitMs;
        this.answerIntervalNanos = 250_000L * specWaitMs;
    }

    /**
     * Sends the spec and jars of {@code jobId} from this daemon to every live daemon of {@code view}, unless this
     * daemon already did under the same view, or does not serve the job (nothing to send). Returns whether it sent.
     */
    boolean distribute(String jobId, FailureView view) {
        Optional<JobDistribution.EncodedSpec> spec = jobs.specOf(jobId);
        if (spec.isEmpty()) {
            return false;
        }
        BroadcastTree tree;
        synchronized (lock) {
            if (view.equals(broadcast.get(jobId))) {
                return false;
            }
            broadcast.put(jobId, view);
            tree = treeFor(view, node.index());
        }
        List<Integer> children = tree.children(node.index());
        Coord origin = node.coord();
        try {
            sendJob(children, jobId, origin, spec.get());
        } catch (IOException | IllegalArgumentException e) {
            // The other daemons will time out on the START with a precise message; this says why.
            LOG.error("cannot broadcast the spec of {} from {}: {}", jobId, origin, e.getMessage());
            synchronized (lock) {
                broadcast.remove(jobId);
            }
            return false;
        }
        LOG.info("broadcast the spec of {} ({} jars) to {} children in the tree from {}", jobId,
                spec.get().jars().size(), children.size(), origin);
        return true;
    }

    /** Asks {@code root}, the daemon that started a shuffle of {@code jobId}, for the job's spec and jars. */
    void request(String jobId, Coord root) {
        if (!muted && !root.equals(node.coord())) {
            LOG.info("still no spec of {}: asking {} for it", jobId, root);
            node.sendService(root, new StreamId(0, 0, ControlTrees.BROADCAST, node.index()),
                    Unpooled.wrappedBuffer(SpecMessages.specRequest(jobId)));
        }
    }

    /**
     * Daemon {@code asking} lacks the spec or jars of a job: sends them to it alone (with itself as origin, so it does
     * not forward them), if this daemon serves the job and did not answer it for the job within the interval.
     */
    void onSpecRequest(SpecMessages.SpecRequest m, Coord asking) {
        Optional<JobDistribution.EncodedSpec> spec = jobs.specOf(m.jobId());
        if (spec.isEmpty() || asking.equals(node.coord())) {
            LOG.debug("{} asked for the spec of {}, which this daemon does not serve", asking, m.jobId());
            return;
        }
        String who = m.jobId() + "@" + asking;
        long now = System.nanoTime();
        synchronized (lock) {
            Long last = answered.get(who);
            if (last != null && now - last < answerIntervalNanos) {
                return;
            }
            answered.remove(who);
            answered.put(who, now);
            if (answered.size() > MAX_ANSWERS_KEPT) {
                answered.remove(answered.keySet().iterator().next());
            }
        }
        try {
            sendJob(List.of(shape.index(asking)), m.jobId(), asking, spec.get());
            LOG.info("sent the spec of {} ({} jars) to {}, which asked for it", m.jobId(), spec.get().jars().size(),
                    asking);
        } catch (IOException | IllegalArgumentException e) {
            LOG.error("cannot send the spec of {} to {}: {}", m.jobId(), asking, e.getMessage());
        }
    }

    /** Sends the SPEC and every JAR_PART of a job, from {@code origin}, to each of {@code to}. */
    private void sendJob(List<Integer> to, String jobId, Coord origin, JobDistribution.EncodedSpec spec)
            throws IOException {
        send(to, SpecMessages.spec(jobId, origin, spec.bytes()), specsSent);
        int part = SpecMessages.partBytes(payloadLimit(), jobId);
        for (JarDigest d : spec.jars()) {
            byte[] jar = jobs.readJar(d);
            int offset = 0;
            do {
                int n = Math.min(part, jar.length - offset);
                send(to, SpecMessages.jarPart(jobId, origin, d, jar.length, offset, jar, offset, n), jarPartsSent);
                offset += n;
            } while (offset < jar.length);
        }
    }

    /** A SPEC message arrived ({@code raw} is it, as received): forward it, then admit the job if it can be. */
    void onSpec(SpecMessages.Spec m, byte[] raw) {
        specsReceived.incrementAndGet();
        forward(m.origin(), raw, specsSent);
        synchronized (lock) {
            Optional<Reception> r = reception(m.jobId());
            if (r.isEmpty()) {
                return;
            }
            r.get().spec = m.encodedSpec();
        }
        tryAdmit(m.jobId());
    }

    /** A JAR_PART message arrived: forward it, then add it to its jar; a complete jar is cached and the job retried. */
    void onJarPart(SpecMessages.JarPart m, byte[] raw) {
        jarPartsReceived.incrementAndGet();
        forward(m.origin(), raw, jarPartsSent);
        if (jobs.hasJar(m.digest())) {
            return;
        }
        byte[] complete = null;
        synchronized (lock) {
            Optional<Reception> r = reception(m.jobId());
            if (r.isEmpty()) {
                return;
            }
            Assembly a = r.get().jars.get(m.digest());
            if (a == null) {
                if (bytesInFlight + m.total() > MAX_BYTES_IN_FLIGHT) {
                    LOG.warn("dropping a part of jar {} of {}: {} bytes of jars already in flight", m.digest(),
                            m.jobId(), bytesInFlight);
                    return;
                }
                a = new Assembly(m.total());
                bytesInFlight += m.total();
                r.get().jars.put(m.digest(), a);
            } else if (a.bytes.length != m.total()) {
                LOG.warn("dropping a part of jar {} of {}: it says {} bytes, earlier parts {}", m.digest(), m.jobId(),
                        m.total(), a.bytes.length);
                return;
            }
            if (a.parts.putIfAbsent(m.offset(), m.bytes().length) == null) {
                System.arraycopy(m.bytes(), 0, a.bytes, (int) m.offset(), m.bytes().length);
                a.received += m.bytes().length;
            }
            if (a.complete()) {
                r.get().jars.remove(m.digest());
                bytesInFlight -= a.bytes.length;
                complete = a.bytes;
            }
        }
        if (complete != null) {
            try {
                jobs.storeJar(m.digest(), complete);
            } catch (JobDistribution.NoRoomYet e) {
                // Not the job's fault, maybe not for long: refuse nothing; a parked START asks again (SPEC_REQUEST).
                synchronized (lock) {
                    drop(m.jobId());
                }
                LOG.warn("jar {} of {} from {} not stored, for now: {}", m.digest(), m.jobId(), m.origin(),
                        e.getMessage());
                return;
            } catch (IOException e) {
                refuse(m.jobId(), "jar " + m.digest() + " of " + m.jobId() + " from " + m.origin() + " refused: "
                        + e.getMessage());
                return;
            }
            tryAdmit(m.jobId());
        }
    }

    /** Forgets everything about {@code jobId} (it ended or expired). */
    public void forget(String jobId) {
        synchronized (lock) {
            drop(jobId);
            broadcast.remove(jobId);
            refused.remove(jobId);
            refusalWaiters.remove(jobId);
        }
    }

    /** Why this daemon refused {@code jobId}, if it did. */
    public Optional<String> refusal(String jobId) {
        synchronized (lock) {
            return Optional.ofNullable(refused.get(jobId));
        }
    }

    /**
     * Completes with the reason once this daemon refuses {@code jobId} (at once if it has). For tests and diagnostics:
     * a job never refused keeps its waiter until {@link #forget}.
     */
    public CompletableFuture<String> whenRefused(String jobId) {
        synchronized (lock) {
            String reason = refused.get(jobId);
            if (reason != null) {
                return CompletableFuture.completedFuture(reason);
            }
            // A copy, so a caller that completes or cancels its future cannot wake the other waiters.
            return refusalWaiters.computeIfAbsent(jobId, k -> new CompletableFuture<>()).copy();
        }
    }

    /** Jobs being received (spec or jars still missing). */
    public int jobsInFlight() {
        synchronized (lock) {
            return receiving.size();
        }
    }

    public Counters counters() {
        return new Counters(specsSent.get(), jarPartsSent.get(), specsReceived.get(), jarPartsReceived.get());
    }

    /** Test hook: a muted daemon neither sends nor forwards broadcast messages (as if every one were lost). */
    public void mute(boolean mute) {
        this.muted = mute;
    }

    private void tryAdmit(String jobId) {
        byte[] spec;
        synchronized (lock) {
            Reception r = receiving.get(jobId);
            spec = r == null ? null : r.spec;
        }
        if (spec == null) {
            return;
        }
        JobDistribution.Admission a = jobs.admit(jobId, spec);
        if (a instanceof JobDistribution.Registered) {
            synchronized (lock) {
                drop(jobId);
            }
            LOG.info("{} registered from the spec broadcast", jobId);
            listener.known(jobId);
        } else if (a instanceof JobDistribution.Refused refusal) {
            refuse(jobId, refusal.reason());
        }
        // NeedsJars: the missing jars are on their way; the job is retried when each completes.
    }

    private void refuse(String jobId, String reason) {
        CompletableFuture<String> waiting;
        synchronized (lock) {
            drop(jobId);
            refused.put(jobId, reason);
            if (refused.size() > MAX_REFUSALS_KEPT) {
                refused.remove(refused.keySet().iterator().next());
            }
            waiting = refusalWaiters.remove(jobId);
        }
        if (waiting != null) {
            waiting.complete(reason);
        }
        LOG.error("daemon {} refused job {}: {}", node.coord(), jobId, reason);
        listener.refused(jobId, reason);
    }

    /**
     * The reception of {@code jobId}, created if needed; empty if the job was refused here or too many are in flight.
     * Caller holds {@link #lock}.
     */
    private Optional<Reception> reception(String jobId) {
        if (refused.containsKey(jobId)) {
            return Optional.empty();
        }
        long now = System.nanoTime();
        Reception r = receiving.get(jobId);
        if (r == null) {
            for (String stale : receiving.entrySet().stream()
                    .filter(e -> now - e.getValue().touchedNanos > staleNanos).map(Map.Entry::getKey).toList()) {
                LOG.warn("dropping the incomplete spec broadcast of {}", stale);
                drop(stale);
            }
            if (receiving.size() >= MAX_JOBS_IN_FLIGHT) {
                LOG.warn("ignoring the spec broadcast of {}: {} jobs already being received", jobId, receiving.size());
                return Optional.empty();
            }
            r = new Reception();
            receiving.put(jobId, r);
        }
        r.touchedNanos = now;
        return Optional.of(r);
    }

    /** Drops a reception and its assemblies. Caller holds {@link #lock}. */
    private void drop(String jobId) {
        Reception r = receiving.remove(jobId);
        if (r != null) {
            for (Assembly a : r.jars.values()) {
                bytesInFlight -= a.bytes.length;
            }
        }
    }

    private void forward(Coord origin, byte[] raw, AtomicLong counter) {
        if (!shape.contains(origin) || origin.equals(node.coord())) {
            return; // outside the torus, or a repair sent to this daemon alone
        }
        BroadcastTree tree;
        synchronized (lock) {
            tree = treeFor(view.get(), shape.index(origin));
        }
        send(tree.children(node.index()), raw, counter);
    }

    /** Caller holds {@link #lock}. */
    private BroadcastTree treeFor(FailureView view, int origin) {
        if (lastTree == null || lastTree.origin() != origin || !lastTree.view().equals(view)) {
            lastTree = new BroadcastTree(view, origin);
        }
        return lastTree;
    }

    private void send(List<Integer> children, byte[] message, AtomicLong counter) {
        if (muted) {
            return;
        }
        StreamId id = new StreamId(0, 0, ControlTrees.BROADCAST, node.index());
        for (int child : children) {
            node.sendService(shape.coord(child), id, Unpooled.wrappedBuffer(message));
            counter.incrementAndGet();
        }
    }

    private int payloadLimit() {
        return node.config().maxFrameBytes() - FrameLayout.PAYLOAD;
    }

}
