package org.camdoop.torus.transport.stream;

/**
 * The receiver's half of credit-based flow control (mirror of {@link CreditLedger}). It grants credit only for buffers
 * it has reserved from the {@link BufferBudget}: {@code limit - consumed} is exactly the number of reserved buffers,
 * covering both frames held by the consumer and credit not yet used, so the receiver never holds more than it granted.
 *
 * <p>Announcements are batched, as TCP batches window updates: each CREDIT frame costs a write at the receiver and a
 * read at the sender, and announcing after every release cost a fifth of a link's throughput on loopback. A batch is
 * a quarter of the stream's reservation, at least one frame and at most the node's maximum (one write buffer's worth
 * of segments), and an announcement goes out as soon as any of these holds (see {@link #shouldAnnounce()}):
 * <ul>
 *   <li>a batch of new credit, or any new credit while the sender has less than a batch of credit left;</li>
 *   <li>a batch of frames received and not yet acknowledged;</li>
 *   <li>the sender asked for an acknowledgement ({@link #ackRequested}). The receiver cannot see how many buffers the
 *       sender reserved, which may be fewer than a batch; a sender that would have three quarters of them awaiting
 *       acknowledgement marks the frame it sends, so a sender waiting for its buffers is always answered.</li>
 * </ul>
 *
 * <p>Not thread-safe: owned by the event loop of the receiving node.
 */
public final class CreditAnnouncer {

    /** What to do with an arriving sequenced frame. */
    public enum Verdict { ACCEPT, DUPLICATE, GAP, OVER_CREDIT }

    private long received;
    private long lastData;
    private long consumed;
    private long limit;
    private long announcedLimit;
    private long announcedAcked;
    /** Highest sequence whose sender asked to be acknowledged promptly. */
    private long ackWanted;
    private final long maxBatch;

    /** @param maxBatch the most frames per announcement however large the reservation (see {@link #batch()}) */
    public CreditAnnouncer(long maxBatch) {
        if (maxBatch < 1) {
            throw new IllegalArgumentException("an announcement batch must be at least one frame, got " + maxBatch);
        }
        this.maxBatch = maxBatch;
    }

    /** For diagnostics: the receiver's position and what it last told the sender. */
    @Override
    public String toString() {
        return "received " + received + " consumed " + consumed + " limit " + limit + " announced " + announcedAcked
                + "/" + announcedLimit + (ackWanted > announcedAcked ? " ack wanted " + ackWanted : "");
    }

    /** Classifies an arriving frame and, when accepted, records it as received. */
    public Verdict onFrame(long seq, boolean end) {
        if (seq <= received) {
            return Verdict.DUPLICATE;
        }
        if (seq != received + 1) {
            return Verdict.GAP;
        }
        if (!end && seq > limit) {
            return Verdict.OVER_CREDIT;
        }
        received = seq;
        if (!end) {
            lastData = seq;
        }
        return Verdict.ACCEPT;
    }

    /** The sender marked frame {@code seq} (already accepted): acknowledge it with the next announcement. */
    public void ackRequested(long seq) {
        ackWanted = Math.max(ackWanted, seq);
    }

    /** The consumer gave back {@code n} buffers. */
    public void consumed(int n) {
        consumed += n;
    }

    /** Reserved buffers: granted credit not yet used plus frames the consumer still holds. */
    public long reserved() {
        return limit - consumed;
    }

    /** Frames delivered and not yet given back. */
    public long held() {
        return lastData - consumed;
    }

    /** Extends credit by {@code n} newly reserved buffers. */
    public void grant(int n) {
        limit += n;
    }

    /**
     * Whether the sender needs news (the rules are in the class comment). Acks matter as much as credit: a sender whose
     * own buffers are all awaiting acknowledgement is stalled even with credit left. The receiver asks whenever its
     * event loop runs for the stream (an accepted frame, buffers given back): cheap arithmetic.
     */
    public boolean shouldAnnounce() {
        long batch = batch();
        long newCredit = limit - announcedLimit;
        return newCredit >= batch
                || (newCredit > 0 && announcedLimit - received < batch)
                || received - announcedAcked >= batch
                || ackWanted > announcedAcked;
    }

    /**
     * How many buffers the consumer may give back before the receiver must take them in on its event loop (and see
     * whether to announce). One while the sender may be waiting for new credit: it has less than a batch of credit left
     * (frames in flight counted as used). Otherwise a batch: the sender then holds at least a batch of credit, so no
     * credit it lacks is held back, and every frame it sends meanwhile runs the event loop for this stream anyway,
     * which takes in what was given back. A sender waiting for acknowledgements is not waiting for releases:
     * acknowledgements are announced as frames arrive (the receiver asks {@link #shouldAnnounce()} on every frame).
     */
    public long releasesBeforeDrain() {
        long batch = batch();
        return announcedLimit - received < batch ? 1 : batch;
    }

    /**
     * Frames per announcement: a quarter of the reservation, at least one and at most {@code maxBatch}. Unbounded, a
     * stream alone on a daemon (a reservation of 3072 segments) announced every 48 MB: the sender then received its
     * credit and buffers back in lumps of 768 frames and its writer refilled in bursts, and the link ran at 0.56-0.60 of
     * raw Netty against 0.64-0.71 with batches of 16, 64 or 256 frames.
     */
    long batch() {
        return Math.max(1, Math.min(maxBatch, reserved() / 4));
    }

    /** Records that {@code (acked(), limit())} was sent. */
    public void announced() {
        announcedLimit = limit;
        announcedAcked = received;
    }

    public long acked() {
        return received;
    }

    public long limit() {
        return limit;
    }

    public long consumedCount() {
        return consumed;
    }
}
