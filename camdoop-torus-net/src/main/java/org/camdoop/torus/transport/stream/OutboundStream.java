package org.camdoop.torus.transport.stream;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.util.concurrent.EventExecutor;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.camdoop.torus.transport.wire.FrameLayout;
import org.camdoop.torus.transport.wire.FrameWriter;
import org.camdoop.torus.transport.wire.MessageType;
import org.camdoop.torus.transport.wire.StreamId;

/**
 * The sending end of one stream. Any thread may write; frames go out from the node's event loop when the receiver has
 * granted credit. Every frame is kept until acknowledged so the stream can resume from the last acknowledged sequence
 * after a link is cut or a route changes. What the stream holds (queued plus unacknowledged) is bounded by the buffers
 * it reserved from the node's {@link BufferBudget}; a write that would exceed them is refused and the writer waits on
 * {@link #whenWritable()}.
 *
 * <p>Threading: the fields marked "lock" are guarded by {@code this}; {@code urgent} and the scheduler fields belong to
 * the event loop.
 */
public final class OutboundStream extends ScheduledSource {

    /** Delivers frames on the local fast path; called outside the stream lock. */
    public interface FrameConsumer {
        void accept(long seq, boolean end, boolean ackRequested, ByteBuf payload);
    }

    private final StreamId id;
    private final int dst;
    private final int maxPayload;
    private final BufferBudget budget;
    private final EventExecutor loop;
    private final Consumer<OutboundStream> onReady;
    private final CompletableFuture<Void> completion = new CompletableFuture<>();

    // lock
    private final CreditLedger ledger = new CreditLedger();
    private final SequencedRing frames = new SequencedRing();
    private long endSeq;
    private int held;
    private int reserved;
    private long heldBytes;
    private boolean wakePending;
    private boolean closed;
    private CompletableFuture<Void> writable;
    /** Completed once every queued frame has been sent (handed to the link), for {@link #whenSent}. */
    private CompletableFuture<Void> sent;
    private final RetransmitBackoff backoff = new RetransmitBackoff();

    // event loop
    private boolean urgent;
    /** The frame {@link #take} handed out last: its sequence, whether it is the END, whether it asks for an ack. */
    private long takenSeq;
    private boolean takenEnd;
    private boolean takenAck;

    /**
     * @param onReady run on {@code loop} when the stream may have become sendable (new data, credit or resume)
     */
    public OutboundStream(StreamId id, int dst, int maxPayload, BufferBudget budget, EventExecutor loop,
            Consumer<OutboundStream> onReady) {
        this.id = id;
        this.dst = dst;
        this.maxPayload = maxPayload;
        this.budget = budget;
        this.loop = loop;
        this.onReady = onReady;
        this.reserved = budget.register();
    }

    public StreamId id() {
        return id;
    }

    /** The destination server index. */
    public int destination() {
        return dst;
    }

    /**
     * Queues one buffer of data if the stream's reservation has room, taking ownership of {@code data}.
     *
     * @return false (ownership stays with the caller) when full: wait on {@link #whenWritable()} and retry
     * @throws IllegalArgumentException if {@code data} is larger than one segment
     * @throws IllegalStateException if the stream was ended or closed
     */
    public boolean tryWrite(ByteBuf data) {
        if (data.readableBytes() > maxPayload) {
            throw new IllegalArgumentException("data frame of " + data.readableBytes() + " bytes exceeds the segment size "
                    + maxPayload);
        }
        boolean wake;
        synchronized (this) {
            checkOpen();
            if (held >= reserved && !growReservation()) {
                return false;
            }
            wake = append(data, false);
        }
        if (wake) {
            loop.execute(this::woken);
        }
        return true;
    }

    /** Writes one buffer, blocking the calling thread until the stream has room. Never call it on an event loop. */
    public void write(ByteBuf data) throws InterruptedException {
        while (!tryWrite(data)) {
            try {
                whenWritable().get();
            } catch (java.util.concurrent.ExecutionException e) {
                data.release();
                throw new IllegalStateException("stream " + id + " failed: " + e.getCause().getMessage(), e.getCause());
            }
        }
    }

    /**
     * Ends the stream with an opaque payload (the service's end-of-stream record). Needs no credit. Takes ownership.
     * {@link #completion()} completes when the receiver has acknowledged it.
     */
    public void end(ByteBuf payload) {
        boolean wake;
        synchronized (this) {
            if (closed || endSeq != 0) {
                payload.release();
                throw new IllegalStateException("stream " + id + " is already " + (closed ? "closed" : "ended"));
            }
            held++;
            wake = append(payload, true);
        }
        if (wake) {
            loop.execute(this::woken);
        }
    }

    /** Completes when a write would be accepted (or exceptionally when the stream is closed). */
    public synchronized CompletableFuture<Void> whenWritable() {
        if (closed) {
            return CompletableFuture.failedFuture(new IllegalStateException("stream " + id + " is closed"));
        }
        if (held < reserved || reserved < budget.fairShare()) {
            return CompletableFuture.completedFuture(null);
        }
        if (writable == null) {
            writable = new CompletableFuture<>();
        }
        return writable;
    }

    /** Completes when END is acknowledged; fails if the stream is closed first. */
    public CompletableFuture<Void> completion() {
        return completion;
    }

    /**
     * Whether frames written to this stream have not been sent yet (waiting for credit or for the link). A closed
     * stream has none: its frames are gone, and a writer waiting for them to leave would wait for ever (or, woken at
     * once by {@link #whenSent}, spin).
     */
    public synchronized boolean hasUnsent() {
        return !closed && ledger.nextSeq() <= frames.last();
    }

    /**
     * Completes (on the event loop, or at once) when every frame written so far has been sent; closing the stream
     * completes it too, so a waiter is never left behind.
     */
    public synchronized CompletableFuture<Void> whenSent() {
        if (closed || ledger.nextSeq() > frames.last()) {
            return CompletableFuture.completedFuture(null);
        }
        if (sent == null) {
            sent = new CompletableFuture<>();
        }
        return sent;
    }

    /** Under the lock, right after a frame was sent: takes the {@link #whenSent} future to complete, if now due. */
    private CompletableFuture<Void> takeSentIfDrained() {
        if (sent == null || ledger.nextSeq() <= frames.last()) {
            return null;
        }
        CompletableFuture<Void> s = sent;
        sent = null;
        return s;
    }

    /** Buffers queued or awaiting acknowledgement. */
    public synchronized int heldBuffers() {
        return held;
    }

    public synchronized long heldBytes() {
        return heldBytes;
    }

    // ---- event loop side ----

    @Override
    public long job() {
        return id.job();
    }

    @Override
    public boolean urgent() {
        return urgent;
    }

    /** Event loop: the receiver asked for (or withdrew) priority. */
    public void setUrgent(boolean u) {
        urgent = u;
    }

    @Override
    public synchronized int nextFrameBytes() {
        long seq = ledger.nextSeq();
        ByteBuf f = frames.get(seq);
        if (f == null || !ledger.maySend(seq, seq == endSeq)) {
            return 0;
        }
        return f.readableBytes() + 40;
    }

    @Override
    public int writeNext(Channel channel, int selfIndex) {
        ByteBuf payload = take();
        if (payload == null) {
            return 0;
        }
        ByteBuf header = FrameWriter.sequencedHeader(channel.alloc(), takenEnd ? MessageType.END : MessageType.DATA,
                takenAck ? FrameLayout.FLAG_ACK_REQUESTED : 0, selfIndex, dst, id, takenSeq, payload.readableBytes());
        int bytes = header.readableBytes() + payload.readableBytes();
        channel.write(header, channel.voidPromise());
        channel.write(payload, channel.voidPromise());
        return bytes;
    }

    /** Event loop, local fast path: hands the next sendable frame to {@code c}; false when none. */
    public boolean deliverNext(FrameConsumer c) {
        ByteBuf payload = take();
        if (payload == null) {
            return false;
        }
        c.accept(takenSeq, takenEnd, takenAck, payload);
        return true;
    }

    /**
     * Event loop: takes the next sendable frame, retained, noting its sequence, end and acknowledgement request in the
     * {@code taken} fields (no allocation per frame); null when none may go out.
     */
    private ByteBuf take() {
        ByteBuf payload;
        CompletableFuture<Void> drained;
        synchronized (this) {
            long seq = ledger.nextSeq();
            ByteBuf f = frames.get(seq);
            boolean end = seq == endSeq;
            if (f == null || !ledger.maySend(seq, end)) {
                return null;
            }
            payload = f.retainedDuplicate();
            takenSeq = seq;
            takenEnd = end;
            takenAck = ledger.asksForAck(seq, reserved);
            ledger.sent();
            drained = takeSentIfDrained();
        }
        if (drained != null) {
            drained.complete(null);
        }
        return payload;
    }

    /** Event loop: a CREDIT announcement arrived. */
    public void onCredit(long acked, long limit) {
        CompletableFuture<Void> wake = null;
        CompletableFuture<Void> drained;
        boolean done;
        synchronized (this) {
            if (closed) {
                return;
            }
            long n = ledger.onCredit(acked, limit);
            if (n > 0) {
                heldBytes -= frames.releaseThrough(ledger.acked());
                held -= (int) n;
                int keep = Math.max(held, budget.fairShare());
                if (reserved > keep) {
                    budget.exchange(reserved - keep, 0);
                    reserved = keep;
                }
                if (writable != null && held < reserved) {
                    wake = writable;
                    writable = null;
                }
            }
            done = endSeq != 0 && ledger.acked() >= endSeq;
            // After a rewind (resume, probe) an acknowledgement of frames the receiver already had moves the next
            // sequence past the last frame without sending one: what was queued has left all the same.
            drained = takeSentIfDrained();
        }
        if (wake != null) {
            wake.complete(null);
        }
        if (drained != null) {
            drained.complete(null);
        }
        if (done) {
            close(null);
            return;
        }
        onReady.accept(this);
    }

    /**
     * Event loop: resend everything after the last acknowledged sequence (link restored, route changed, or the receiver
     * saw a frame arrive past a gap).
     */
    public void resume() {
        synchronized (this) {
            if (closed) {
                return; // acknowledged to its end meanwhile (the credit that asked for it can complete it)
            }
            ledger.rewind();
            backoff.restart();
        }
        onReady.accept(this);
    }

    /**
     * Event loop: the receiver saw a frame arrive past a gap after {@code acked} (FLAG_GAP); whether to resend from
     * there now ({@link CreditLedger#resendsAfterGap}).
     */
    public synchronized boolean resendsAfterGap(long acked) {
        return !closed && ledger.resendsAfterGap(acked);
    }

    /**
     * Event loop: frames went unacknowledged too long ({@link #unacknowledgedTooLong}); sends the first of them again,
     * asking for an acknowledgement, and the rest only once the receiver answered ({@link CreditLedger#probe}).
     */
    public void probe() {
        synchronized (this) {
            ledger.probe();
            backoff.restart();
        }
        onReady.accept(this);
    }

    /**
     * Event loop, once per retransmission tick: whether frames sent past the last acknowledgement have gone without
     * any acknowledgement for two ticks, or twice as long as before after each such resend (the caller then resends
     * them: they may have been lost on a broken path; a path that is only slow sees fewer and fewer duplicates).
     */
    public synchronized boolean unacknowledgedTooLong() {
        return !closed && backoff.tick(ledger.acked(), ledger.nextSeq());
    }

    /** For diagnostics (a stalled stream's state): its ledger, buffers and end. */
    public synchronized String describe() {
        return ledger + " end " + endSeq + " held " + held + "/" + reserved + " " + backoff + (closed ? " closed" : "")
                + (writable != null ? " writer waiting" : "");
    }

    /** Releases every buffer and the reservation; {@code cause == null} means the stream completed. */
    public void close(Throwable cause) {
        CompletableFuture<Void> wake;
        CompletableFuture<Void> drained;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            frames.releaseAll();
            budget.unregister(reserved);
            reserved = 0;
            held = 0;
            heldBytes = 0;
            wake = writable;
            writable = null;
            drained = sent;
            sent = null;
        }
        if (drained != null) {
            drained.complete(null);
        }
        IllegalStateException closedEx = new IllegalStateException("stream " + id + " closed"
                + (cause == null ? "" : ": " + cause.getMessage()));
        if (wake != null) {
            wake.completeExceptionally(closedEx);
        }
        if (cause == null) {
            completion.complete(null);
        } else {
            completion.completeExceptionally(closedEx);
        }
    }

    public synchronized boolean isClosed() {
        return closed;
    }

    // ---- helpers, lock held ----

    private boolean growReservation() {
        int g = budget.growToward(reserved, 64);
        reserved += g;
        return g > 0;
    }

    private boolean append(ByteBuf buf, boolean end) {
        // Wake the loop only if it had sent everything queued: otherwise the stream is already scheduled or waits
        // for credit, and the credit's arrival wakes it.
        boolean drained = ledger.nextSeq() > frames.last();
        long seq = frames.last() + 1;
        frames.append(seq, buf);
        if (end) {
            endSeq = seq;
        } else {
            held++;
        }
        heldBytes += buf.readableBytes();
        if (drained && !wakePending) {
            wakePending = true;
            return true;
        }
        return false;
    }

    private void woken() {
        synchronized (this) {
            wakePending = false;
        }
        onReady.accept(this);
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("stream " + id + " is closed");
        }
        if (endSeq != 0) {
            throw new IllegalStateException("stream " + id + " has ended");
        }
    }
}
