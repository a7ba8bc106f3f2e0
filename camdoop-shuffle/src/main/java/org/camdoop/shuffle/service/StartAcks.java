package org.camdoop.shuffle.service;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes a shuffle's START reliable over best-effort service messages: the root sends it, remembers which daemons have
 * not yet acknowledged it, sends it again to them after {@link #RETRY_MS} ms, doubling up to {@link #MAX_RETRY_MS}, and
 * gives up after the wait, naming them. A START can be lost when it meets a link still handshaking or going down;
 * without this the root would wait forever for vertices nobody knows to run.
 *
 * <p>Each pending start is guarded by its own monitor; the map is concurrent.
 */
final class StartAcks {

    private static final Logger LOG = LoggerFactory.getLogger(StartAcks.class);

    /** Lost STARTs are rare (a link handshaking or going down): wait long enough not to add load to busy daemons. */
    static final long RETRY_MS = 1000;
    static final long MAX_RETRY_MS = 8000;

    /** Sends START for {@code spec} to server index {@code server} (the first time, and again). */
    interface Sender extends BiConsumer<ShuffleSpec, Integer> {
    }

    /** Gives up on {@code spec}: the servers that never answered. */
    interface GiveUp extends BiConsumer<ShuffleSpec, Set<Integer>> {
    }

    private record Key(long streamKey, int partition) {
    }

    private static final class Pending {
        final ShuffleSpec spec;
        final Set<Integer> waiting;
        final long deadlineNanos;
        long intervalMs = RETRY_MS;
        ScheduledFuture<?> retry;

        Pending(ShuffleSpec spec, Set<Integer> waiting, long deadlineNanos) {
            this.spec = spec;
            this.waiting = waiting;
            this.deadlineNanos = deadlineNanos;
        }
    }

    private final Map<Key, Pending> pending = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer;
    private final Executor work;
    private final long waitMs;
    private final LongSupplier nanoClock;
    private final Sender sender;
    private final GiveUp giveUp;

    StartAcks(ScheduledExecutorService timer, Executor work, long waitMs, LongSupplier nanoClock, Sender sender,
            GiveUp giveUp) {
        this.timer = timer;
        this.work = work;
        this.waitMs = waitMs;
        this.nanoClock = nanoClock;
        this.sender = sender;
        this.giveUp = giveUp;
    }

    /**
     * Sends START to {@code servers} and expects their acknowledgements. The expectation is in place before the first
     * START leaves: a nearby daemon's acknowledgement can come back before the last START is sent, and one that found
     * nothing to acknowledge would be taken for a lost START and sent again a second later.
     */
    void send(ShuffleSpec spec, Set<Integer> servers) {
        if (servers.isEmpty()) {
            return;
        }
        Key key = new Key(spec.streamKey(), spec.partition());
        Pending p = new Pending(spec, new TreeSet<>(servers), nanoClock.getAsLong() + waitMs * 1_000_000);
        pending.put(key, p);
        synchronized (p) {
            schedule(key, p);
        }
        try {
            servers.forEach(server -> sender.accept(spec, server));
        } catch (RuntimeException e) {
            forget(spec.streamKey(), spec.partition()); // the caller learns why; nothing is to be sent again
            throw e;
        }
    }

    /** Server {@code from} acknowledged the START of the shuffle {@code (streamKey, partition)}. */
    void acknowledged(long streamKey, int partition, int from) {
        Key key = new Key(streamKey, partition);
        Pending p = pending.get(key);
        if (p == null) {
            return;
        }
        synchronized (p) {
            p.waiting.remove(from);
            if (p.waiting.isEmpty()) {
                done(key, p);
            }
        }
    }

    /** The shuffle ended or was aborted: stop retrying. */
    void forget(long streamKey, int partition) {
        Key key = new Key(streamKey, partition);
        Pending p = pending.get(key);
        if (p != null) {
            synchronized (p) {
                done(key, p);
            }
        }
    }

    /** Shuffles whose START some daemon has not acknowledged yet. */
    int unacknowledged() {
        return pending.size();
    }

    private void tick(Key key, Pending p) {
        Set<Integer> silent;
        synchronized (p) {
            if (pending.get(key) != p || p.waiting.isEmpty()) {
                return;
            }
            if (nanoClock.getAsLong() < p.deadlineNanos) {
                LOG.info("shuffle {}: no acknowledgement of START from {} daemon(s) after {} ms; sending it again",
                        p.spec.describe(), p.waiting.size(), p.intervalMs);
                for (int server : p.waiting) {
                    try {
                        sender.accept(p.spec, server);
                    } catch (RuntimeException e) {
                        // Sent once already, so not one that never fits; keep trying the others, and give up in time.
                        LOG.warn("shuffle {}: START not sent again to server {}", p.spec.describe(), server, e);
                    }
                }
                // Back off: a daemon slow to answer is usually busy, and more STARTs would only add to its queue.
                p.intervalMs = Math.min(MAX_RETRY_MS, p.intervalMs * 2);
                schedule(key, p);
                return;
            }
            silent = Set.copyOf(p.waiting);
            done(key, p);
        }
        giveUp.accept(p.spec, silent);
    }

    /** Timer threads only hand the work to the executor. Called with {@code p}'s monitor held. */
    private void schedule(Key key, Pending p) {
        p.retry = timer.schedule(() -> work.execute(() -> tick(key, p)), p.intervalMs, TimeUnit.MILLISECONDS);
    }

    private void done(Key key, Pending p) {
        if (p.retry != null) {
            p.retry.cancel(false);
        }
        pending.remove(key, p);
    }
}
