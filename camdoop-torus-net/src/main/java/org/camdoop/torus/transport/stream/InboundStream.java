package org.camdoop.torus.transport.stream;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.EventExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import org.camdoop.torus.transport.wire.StreamId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The receiving end of one stream. Delivers frames to its {@link InboundHandler} in order, drops duplicates (a resent
 * tail after a link was restored) by sequence number, and grants credit backed by buffers reserved from the node's
 * {@link BufferBudget} as the handler releases what it consumed.
 *
 * <p>Threading: everything belongs to the node's event loop except {@link #release(int)} and {@link #markUrgent},
 * which any thread may call; they hand over through {@code released} (an atomic) and a task on the loop.
 *
 * <p>Buffers given back are taken in lazily. A release wakes the loop only when the buffers given back reach
 * {@code drainAfter}, which the loop publishes ({@link CreditAnnouncer#releasesBeforeDrain}: one while the sender may
 * be waiting for us, else a batch). Below it they wait, counted as reserved, until the loop next runs for this stream:
 * an accepted frame, the END, a re-announcement. Waking the loop for each release cost a wake-up per vertex run and
 * input, for announcements that mostly did not go out. The loop writes {@code drainAfter} and then reads
 * {@code released}; a release adds to {@code released} and then reads {@code drainAfter} (both volatile): so either
 * the release sees the threshold it reached and wakes the loop, or the loop sees the release and takes it in.
 * Acknowledgements do not wait for releases: each accepted frame is announced when the rules call for it.
 */
public final class InboundStream {

    private static final Logger LOG = LoggerFactory.getLogger(InboundStream.class);

    private final StreamId id;
    private final int sender;
    private final InboundHandler handler;
    private final BufferBudget budget;
    private final EventExecutor loop;
    private final CreditSink sink;
    private final AtomicInteger released = new AtomicInteger();
    /** Buffers given back at which a release wakes the loop; written by the loop only. */
    private volatile int drainAfter = 1;
    /** A drain is on the stack (an announcement to a sender on this node delivers frames at once): event loop. */
    private boolean draining;
    private boolean drainAgain;

    // event loop
    private final CreditAnnouncer announcer;
    private boolean ended;
    private boolean closed;
    private long duplicates;
    private long refused;
    /** The acknowledged position last reported as followed by a gap (one report per position); -1: none. */
    private long gapReportedAt = -1;
    private long gaps;
    /** Frames admitted, that count at the last retransmission tick, and the ticks since it last moved. */
    private long admitted;
    private long admittedAtTick;
    private int quietTicks;

    /**
     * @param announceBatch the most frames acknowledged or credited per CREDIT announcement (see
     *                      {@link CreditAnnouncer}); smaller reservations announce more often
     */
    public InboundStream(StreamId id, int sender, InboundHandler handler, BufferBudget budget, EventExecutor loop,
            CreditSink sink, int announceBatch) {
        this.announcer = new CreditAnnouncer(announceBatch);
        this.id = id;
        this.sender = sender;
        this.handler = handler;
        this.budget = budget;
        this.loop = loop;
        this.sink = sink;
        announcer.grant(budget.register());
    }

    public StreamId id() {
        return id;
    }

    /** The sending server's index. */
    public int sender() {
        return sender;
    }

    /** Any thread: the handler is done with {@code n} buffers; their credit may be granted again. */
    public void release(int n) {
        if (n <= 0) {
            throw new IllegalArgumentException("release count must be positive, got " + n);
        }
        int after = released.addAndGet(n);
        int threshold = drainAfter;
        if (after >= threshold && after - n < threshold) {
            loop.execute(this::drainReleases);
        }
    }

    /** Any thread: ask the sender's links to serve this stream before others (the merge waits on it), or stop asking. */
    public void markUrgent(boolean urgent) {
        loop.execute(() -> {
            if (!closed) {
                sink.urgent(sender, id, urgent);
            }
        });
    }

    // ---- event loop ----

    /** Event loop: grants the initial credit (called once the stream is registered). */
    public void open() {
        topUp();
        announce(true);
    }

    /**
     * Event loop: a DATA frame arrived; takes ownership of {@code payload}. {@code ackRequested}: its sender is short of
     * buffers and waits for acknowledgements (acknowledged with the next announcement rather than a batch later).
     */
    public void onData(long seq, boolean ackRequested, ByteBuf payload) {
        if (!admit(seq, false, payload)) {
            return;
        }
        if (ackRequested) {
            announcer.ackRequested(seq);
        }
        try {
            handler.onData(this, seq, payload);
        } catch (RuntimeException e) {
            // A handler that throws breaks its contract (it owns the buffer and the credit): contain it to this stream.
            LOG.error("inbound handler of {} failed on sequence {}; the stream is closed", id, seq, e);
            close();
        }
        drainReleases();
    }

    /** Event loop: the END frame arrived; takes ownership of {@code payload}. */
    public void onEnd(long seq, ByteBuf payload) {
        if (!admit(seq, true, payload)) {
            return;
        }
        ended = true;
        announce(true);
        try {
            handler.onEnd(this, payload);
        } catch (RuntimeException e) {
            LOG.error("inbound handler of {} failed on end of stream; the stream is closed", id, e);
            close();
        }
        maybeFinish();
        drainReleases();
    }

    /** Event loop: the path to the sender came back; repeat the last announcement in case it was lost. */
    public void reannounce() {
        drainReleases();
        if (!closed) {
            announce(true);
        }
    }

    /**
     * Event loop, once per retransmission tick: after two ticks without a frame, repeats the announcement (a CREDIT
     * lost on a broken path would otherwise leave the sender waiting for credit it was granted).
     */
    public void retransmissionTick() {
        if (closed || ended || admitted != admittedAtTick) {
            admittedAtTick = admitted;
            quietTicks = 0;
            return;
        }
        if (++quietTicks >= 2) {
            quietTicks = 0;
            drainReleases();
            if (!closed) {
                announce(true);
            }
        }
    }

    /** Event loop: stop receiving and give the buffers back (frames still held by the handler stay its own). */
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        budget.unregister(announcer.reserved());
        sink.closed(this);
    }

    /** Event loop, for diagnostics (a stalled stream's state). */
    public String describe() {
        return announcer + " given back " + released.get() + " (taken in at " + drainAfter + ")"
                + (ended ? " ended" : "") + " duplicates " + duplicates + " quiet " + quietTicks;
    }

    public long duplicatesDropped() {
        return duplicates;
    }

    /** Event loop: how often a frame arrived past a gap at a new position, and a resend was asked for. */
    public long gapsReported() {
        return gaps;
    }

    /** Frames refused because they arrived without credit (a misbehaving sender). */
    public long refusedOverCredit() {
        return refused;
    }

    /** Event loop: frames delivered to the handler and not yet taken in (given back or not: see the class comment). */
    public long heldBuffers() {
        return announcer.held();
    }

    private boolean admit(long seq, boolean end, ByteBuf payload) {
        if (closed) {
            payload.release();
            return false;
        }
        switch (announcer.onFrame(seq, end)) {
            case ACCEPT:
                admitted++;
                return true;
            case DUPLICATE:
                duplicates++;
                payload.release();
                // The sender resent what we already had: tell it where we are so it skips ahead.
                announce(true);
                return false;
            case GAP:
                payload.release();
                LOG.debug("{}: sequence {} skips ahead of {}; dropped until the sender resumes", id, seq,
                        announcer.acked());
                if (gapReportedAt != announcer.acked() && (end || seq <= announcer.limit())) {
                    // Frames before it were lost on the way: ask for them now, not at the sender's timer. Once per
                    // position: what was sent after the lost frames arrives past the gap too. Not for a frame past
                    // the credit granted, which no honest sender sends.
                    gapReportedAt = announcer.acked();
                    gaps++;
                    announcer.announced();
                    sink.gap(sender, id, announcer.acked(), announcer.limit());
                }
                return false;
            case OVER_CREDIT:
            default:
                refused++;
                payload.release();
                LOG.warn("{}: sequence {} arrived beyond the granted limit {}; dropped", id, seq, announcer.limit());
                return false;
        }
    }

    /**
     * Event loop: takes in the buffers given back, announces what the rules call for (acknowledgements of frames
     * received included, with or without releases), then publishes the next wake-up threshold and takes in any release
     * that reached it meanwhile (see the class comment). Not re-entered: an announcement to a sender on this node
     * delivers its next frames at once, and their {@link #onData} leaves the drain to the one on the stack.
     */
    private void drainReleases() {
        if (draining) {
            drainAgain = true;
            return;
        }
        draining = true;
        try {
            do {
                drainAgain = false;
                drainOnce();
            } while (drainAgain && !closed);
        } finally {
            draining = false;
        }
    }

    private void drainOnce() {
        while (!closed) {
            int n = released.getAndSet(0);
            if (n > 0) {
                takeIn(n);
                continue;
            }
            if (!ended) {
                announce(false);
            }
            int threshold = ended ? 1 : (int) announcer.releasesBeforeDrain();
            drainAfter = threshold;
            if (released.get() < threshold) {
                return;
            }
        }
    }

    private void takeIn(int n) {
        announcer.consumed(n);
        if (ended) {
            budget.exchange(n, 0);
            maybeFinish();
            return;
        }
        // The guaranteed minimum is re-granted straight away, never returned to the pool: when the pool is exhausted
        // by streams above their share, a stream that gave back its last buffers could otherwise starve for good.
        int keep = (int) Math.min(n, Math.max(0, budget.minPerStream() - announcer.reserved()));
        budget.exchange(n - keep, 0);
        announcer.grant(keep);
        topUp();
    }

    private void topUp() {
        // Each freed buffer goes back to the pool first, so a stream above a shrunken share drifts down to it.
        announcer.grant(budget.growToward((int) announcer.reserved(), Integer.MAX_VALUE));
    }

    private void announce(boolean force) {
        if (force || announcer.shouldAnnounce()) {
            announcer.announced();
            sink.credit(sender, id, announcer.acked(), announcer.limit());
        }
    }

    private void maybeFinish() {
        if (announcer.held() <= 0) {
            close();
        }
    }
}
