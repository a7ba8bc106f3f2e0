package org.camdoop.torus.transport.stream;

/**
 * The sender's half of credit-based flow control (mirror of {@link CreditAnnouncer}). Credit is positional, as in
 * Aeron: the receiver announces the highest sequence it will accept ({@code limit}) and the highest it has received in
 * order ({@code acked}), so a lost, repeated or reordered announcement can never inflate credit. One credit = one DATA
 * frame; END needs none.
 *
 * <p>Not thread-safe: owned by the {@link OutboundStream} lock.
 */
public final class CreditLedger {

    private long acked;
    private long limit;
    private long nextSeq = 1;
    // Whether the receiver has announced at all, i.e. has opened its end of the stream.
    private boolean heard;
    // While probing (see probe()), the only sequence that may go out; 0 when not probing.
    private long probeSeq;
    // The highest sequence sent before the last rewind(); 0: none yet.
    private long resentThrough;

    /**
     * Applies an announcement.
     *
     * @return how many more frames are now acknowledged (0 for a stale announcement)
     */
    public long onCredit(long ackedSeq, long limitSeq) {
        heard = true;
        probeSeq = 0; // any announcement answers a probe: the receiver is reachable and says where it stands
        if (limitSeq > limit) {
            limit = limitSeq;
        }
        if (ackedSeq > acked) {
            long n = ackedSeq - acked;
            acked = ackedSeq;
            if (nextSeq <= acked) {
                nextSeq = acked + 1;
            }
            return n;
        }
        return 0;
    }

    /**
     * Whether a frame with this sequence may go out now. END carries no data and needs no credit, but like data it waits
     * until the receiver has announced itself: before that the receiver's server may not have opened the stream yet and
     * would drop the END as addressed to an unknown stream (it is resent only on a reroute).
     */
    public boolean maySend(long seq, boolean end) {
        if (probeSeq != 0 && seq > probeSeq) {
            return false;
        }
        return end ? heard : seq <= limit;
    }

    /**
     * Whether frame {@code seq} should ask for a prompt acknowledgement, for a sender holding {@code reserved} buffers:
     * while probing (the probe wants its answer), or once it is sent, at least three quarters of those buffers await
     * one. The receiver batches its acknowledgements by its own reservation, which may exceed ours; without the request
     * a writer waiting for buffers could wait for an acknowledgement that never comes. At three quarters, a receiver
     * whose batches are a quarter of a reservation like ours is never asked (at half, the frames in transit on a fast
     * link made every other frame ask), and the request still comes a quarter of the reservation before the writer
     * would stall.
     */
    public boolean asksForAck(long seq, int reserved) {
        return probeSeq != 0 || 4 * (seq - acked) >= 3 * (long) reserved;
    }

    /** Records that {@link #nextSeq()} went out. */
    public void sent() {
        nextSeq++;
    }

    /** Resumes from the last acknowledged position: everything after it is sent again (the receiver drops duplicates). */
    public void rewind() {
        resentThrough = Math.max(resentThrough, nextSeq - 1);
        nextSeq = acked + 1;
        probeSeq = 0; // resending everything supersedes a probe
    }

    /**
     * Rewinds to the last acknowledged position, but lets only the first frame after it go out until the receiver
     * answers (any announcement). The receiver acknowledges it at once: as a duplicate if it had the frames (then the
     * answer acknowledges everything it has, and nothing is sent again), or as the frame it was missing (then the
     * rest follows, resent from there). So a retransmission timeout that fired only because the path is slow costs one
     * frame, not the whole window.
     */
    public void probe() {
        nextSeq = acked + 1;
        probeSeq = acked + 1;
    }

    /**
     * Whether the receiver's report of frames lost after {@code ackedSeq} (a frame arrived past a gap) calls for a
     * rewind: not if the report is stale (an acknowledgement of more came first), nor while the last rewind still
     * covers the position: frames sent before it can still arrive past the gap and report it again, and one resend of
     * the window per gap is enough (a second loss there is left to the retransmission timer). So a receiver, honest or
     * not, makes the sender resend its window at most once per window of progress.
     */
    public boolean resendsAfterGap(long ackedSeq) {
        return ackedSeq >= acked && ackedSeq >= resentThrough;
    }

    /** Whether a probe is waiting for its answer. */
    public boolean probing() {
        return probeSeq != 0;
    }

    public long nextSeq() {
        return nextSeq;
    }

    public long acked() {
        return acked;
    }

    public long limit() {
        return limit;
    }

    /** For diagnostics: the sender's position, e.g. {@code acked 12 next 13 limit 40 probing 13}. */
    @Override
    public String toString() {
        return "acked " + acked + " next " + nextSeq + " limit " + limit + (heard ? "" : " unheard")
                + (probeSeq != 0 ? " probing " + probeSeq : "");
    }

    /** Credits left: DATA frames that may still go out beyond those already sent. */
    public long available() {
        return Math.max(0, limit - nextSeq + 1);
    }
}
