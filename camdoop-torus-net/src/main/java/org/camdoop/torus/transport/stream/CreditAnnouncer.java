package org.camdoop.torus.transport.stream;

/**
 * The receiver's half of credit-based flow control (mirror of {@link CreditLedger}). It grants credit only for buffers
 * it has reserved from the {@link BufferBudget}: {@code limit - consumed} is exactly the number of reserved buffers,
 * covering both frames held by the consumer and credit not yet used, so the receiver never holds more than it granted.
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
     * Whether there is news for the sender: more credit, or frames received since the last announcement. Acks matter
     * as much as credit: a sender whose own buffers are all awaiting acknowledgement is stalled even with credit left.
     * Callers announce at most once per batch of releases, which keeps this to a small fraction of the data frames.
     */
    public boolean shouldAnnounce() {
        return limit > announcedLimit || received > announcedAcked;
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
