package org.camdoop.torus.transport.stream;

/**
 * When an outbound stream's unacknowledged frames have been quiet long enough to resend: two retransmission ticks
 * without the acknowledged sequence moving, then twice as long after each resend (up to 64 ticks), so a path that is
 * only slow sees fewer and fewer duplicates while one that lost frames gets them again.
 *
 * <p>Not thread-safe: owned by the {@link OutboundStream} lock, like the {@link CreditLedger} it reads.
 */
final class RetransmitBackoff {

    private long ackedAtTick;
    private int quietTicks;
    private int resends;

    /**
     * One tick: whether frames sent past {@code acked} (the next to send is {@code nextSeq}) have gone unacknowledged
     * for the current wait; if so a resend is counted.
     */
    boolean tick(long acked, long nextSeq) {
        if (nextSeq <= acked + 1 || acked != ackedAtTick) {
            ackedAtTick = acked;
            quietTicks = 0;
            resends = 0;
            return false;
        }
        if (++quietTicks < 2 << Math.min(resends, 5)) {
            return false;
        }
        resends++;
        return true;
    }

    /** The stream resent (a rewind or a probe): the quiet spell starts again. */
    void restart() {
        quietTicks = 0;
    }

    @Override
    public String toString() {
        return "quiet " + quietTicks + " resends " + resends;
    }
}
