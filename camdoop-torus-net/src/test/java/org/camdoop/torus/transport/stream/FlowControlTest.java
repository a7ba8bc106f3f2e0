package org.camdoop.torus.transport.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.camdoop.torus.transport.stream.CreditAnnouncer.Verdict;
import org.junit.jupiter.api.Test;

class FlowControlTest {

    @Test
    void senderNeverExceedsTheAnnouncedLimitAndStaleAnnouncementsChangeNothing() {
        CreditLedger l = new CreditLedger();
        assertFalse(l.maySend(1, false), "no credit before the first announcement");
        assertFalse(l.maySend(1, true), "not even END: the receiver may not have opened the stream yet");
        assertEquals(0, l.onCredit(0, 2));
        assertTrue(l.maySend(1, false));
        l.sent();
        l.sent();
        assertFalse(l.maySend(3, false));
        assertTrue(l.maySend(3, true), "END needs no credit");
        assertEquals(2, l.onCredit(2, 4));
        assertEquals(0, l.onCredit(1, 3), "a stale, reordered announcement changes nothing");
        assertEquals(4, l.limit());
        l.sent();
        l.rewind();
        assertEquals(3, l.nextSeq(), "resume from the last acknowledged position");
    }

    @Test
    void aProbeSendsOneFrameUntilTheReceiverAnswersThenOnlyWhatItLacks() {
        CreditLedger l = new CreditLedger();
        l.onCredit(0, 10);
        for (int i = 0; i < 6; i++) {
            l.sent();
        }
        // Frames 1-6 went out, 1-2 acknowledged; then nothing for too long.
        l.onCredit(2, 10);
        l.probe();
        assertTrue(l.probing());
        assertEquals(3, l.nextSeq());
        assertTrue(l.maySend(3, false));
        l.sent();
        assertFalse(l.maySend(4, false), "only the probe until the receiver answers");
        assertFalse(l.maySend(4, true), "not even END");
        // The receiver had everything (the probe was a duplicate): its answer acknowledges all six, nothing is resent.
        assertEquals(4, l.onCredit(6, 10));
        assertFalse(l.probing());
        assertEquals(7, l.nextSeq());

        // 7-9 went out; the receiver got 7, lost 8 with a link and dropped 9 after the gap. The probe (7, a duplicate
        // there) is answered with 7, and 8 and 9 go again.
        l.sent();
        l.sent();
        l.sent();
        l.probe();
        assertEquals(7, l.nextSeq());
        l.sent();
        assertEquals(1, l.onCredit(7, 12));
        assertFalse(l.probing());
        assertTrue(l.maySend(8, false));
        assertEquals(8, l.nextSeq(), "the rest is resent from after the answer");
    }

    @Test
    void receiverAcceptsInOrderDropsDuplicatesAndRefusesFramesBeyondCredit() {
        CreditAnnouncer a = new CreditAnnouncer(16);
        a.grant(2);
        assertEquals(Verdict.ACCEPT, a.onFrame(1, false));
        assertEquals(Verdict.DUPLICATE, a.onFrame(1, false));
        assertEquals(Verdict.GAP, a.onFrame(3, false));
        assertEquals(Verdict.ACCEPT, a.onFrame(2, false));
        assertEquals(Verdict.OVER_CREDIT, a.onFrame(3, false));
        assertEquals(2, a.held());
        assertEquals(2, a.reserved());
        a.consumed(2);
        assertEquals(0, a.reserved());
        assertEquals(Verdict.ACCEPT, a.onFrame(3, true), "END needs no credit");
        assertEquals(0, a.held());
    }

    @Test
    void aSmallReservationAnnouncesEveryNewCreditAndEveryAcknowledgement() {
        CreditAnnouncer a = new CreditAnnouncer(16);
        a.grant(2);
        assertTrue(a.shouldAnnounce());
        a.announced();
        assertFalse(a.shouldAnnounce(), "nothing new");
        a.onFrame(1, false);
        assertTrue(a.shouldAnnounce(), "a batch of two buffers is one frame: the received frame is acknowledged");
        a.announced();
        a.consumed(1);
        a.grant(1);
        assertTrue(a.shouldAnnounce(), "new credit");
    }

    @Test
    void announcementsAreBatchedByAQuarterOfTheReservationUpToTheMaximum() {
        CreditAnnouncer a = new CreditAnnouncer(16);
        a.grant(40);
        a.announced();
        assertEquals(10, a.batch(), "a quarter of 40");
        for (long seq = 1; seq <= 9; seq++) {
            a.onFrame(seq, false);
            a.consumed(1);
            a.grant(1);
            assertFalse(a.shouldAnnounce(), "frame " + seq + ": less than a batch of news, and credit to spare");
        }
        a.onFrame(10, false);
        assertTrue(a.shouldAnnounce(), "a batch received");
        a.announced();

        CreditAnnouncer big = new CreditAnnouncer(16);
        big.grant(3072);
        assertEquals(16, big.batch(), "a quarter of 3072 is 768 frames, capped at the maximum");
    }

    @Test
    void aSenderNearlyOutOfCreditHearsOfAnyNewCredit() {
        CreditAnnouncer a = new CreditAnnouncer(16);
        a.grant(8);
        a.announced();
        for (long seq = 1; seq <= 7; seq++) {
            a.onFrame(seq, false);
        }
        a.announced();
        a.onFrame(8, false);
        assertFalse(a.shouldAnnounce(), "one frame of news, the consumer holds every buffer: nothing to grant");
        a.consumed(1);
        a.grant(1);
        assertTrue(a.shouldAnnounce(), "the sender has used all its credit: one new frame of credit is news");
    }

    @Test
    void theConsumerGivesBackABatchBeforeTheLoopMustRunUnlessTheSenderRunsLowOnCredit() {
        CreditAnnouncer a = new CreditAnnouncer(16);
        a.grant(64);
        a.announced();
        assertEquals(16, a.releasesBeforeDrain(), "64 frames of credit, none used: a batch");
        for (long seq = 1; seq <= 48; seq++) {
            a.onFrame(seq, false);
        }
        assertEquals(16, a.releasesBeforeDrain(), "16 frames of credit left: still a batch");
        a.onFrame(49, false);
        assertEquals(1, a.releasesBeforeDrain(), "15 left, less than a batch: the sender may wait for the next");
        a.consumed(49);
        a.grant(49);
        a.announced();
        assertEquals(16, a.releasesBeforeDrain(), "announced: 64 frames of credit again");

        CreditAnnouncer eight = new CreditAnnouncer(16);
        eight.grant(8);
        eight.announced();
        assertEquals(2, eight.releasesBeforeDrain(), "a reservation of eight: a batch is two");
        for (long seq = 1; seq <= 7; seq++) {
            eight.onFrame(seq, false);
        }
        assertEquals(1, eight.releasesBeforeDrain(), "one frame of credit left");
    }

    @Test
    void anAcknowledgementTheSenderAskedForGoesOutWithTheNextAnnouncement() {
        CreditAnnouncer a = new CreditAnnouncer(16);
        a.grant(64);
        a.announced();
        a.onFrame(1, false);
        assertFalse(a.shouldAnnounce(), "one frame of a 16-frame batch");
        a.ackRequested(1);
        assertTrue(a.shouldAnnounce(), "the sender asked");
        a.announced();
        assertFalse(a.shouldAnnounce(), "answered");
    }

    @Test
    void budgetIsNeverExceededAndSharesFollowTheNumberOfStreams() {
        BufferBudget b = new BufferBudget(10 * 1024, 1024, 2, Integer.MAX_VALUE);
        assertEquals(10, b.totalBuffers());
        b.register();
        assertEquals(8, b.fairShare(), "growth leaves a quarter of the pool as headroom");
        assertEquals(6, b.exchange(0, 100), "only up to the growth cap is reserved");
        b.register();
        assertEquals(10, b.reservedBuffers(), "a new stream takes its minimum from the headroom");
        assertEquals(4, b.fairShare());
        assertThrows(BudgetExhaustedException.class, b::register);
        assertEquals(0, b.exchange(0, 5));
        b.exchange(4, 0);
        b.register();
        assertEquals(8, b.reservedBuffers());
        assertEquals(10, b.peakReservedBuffers());
    }

    @Test
    void aStreamGrowsToItsWindowAtMostWhateverThePoolHoldsAndNeverBelowItsMinimum() {
        BufferBudget b = new BufferBudget(1024 * 1024, 1024, 2, 16);
        b.register();
        assertEquals(16, b.fairShare(), "one stream alone may take 768 buffers, but its window is 16");
        assertThrows(IllegalArgumentException.class, () -> new BufferBudget(1024 * 1024, 1024, 4, 3));
        BufferBudget crowded = new BufferBudget(10 * 1024, 1024, 2, 16);
        crowded.register();
        crowded.register();
        crowded.register();
        assertEquals(2, crowded.fairShare(), "a crowded pool: the minimum, under the window");
    }

    @Test
    void noOpenStreamsCompletesWhenTheLastStreamClosesAndAtOnceWhenNoneIsOpen() {
        BufferBudget b = new BufferBudget(10 * 1024, 1024, 2, Integer.MAX_VALUE);
        assertTrue(b.whenNoOpenStreams().isDone(), "no stream was ever open");
        int first = b.register();
        int second = b.register();
        java.util.concurrent.CompletableFuture<Void> idle = b.whenNoOpenStreams();
        java.util.concurrent.CompletableFuture<Void> other = b.whenNoOpenStreams();
        other.cancel(false);
        b.unregister(first);
        assertFalse(idle.isDone(), "one stream is still open");
        b.unregister(second);
        assertTrue(idle.isDone() && !idle.isCompletedExceptionally(),
                "the last stream closed (another waiter cancelling its own future changes nothing)");
        assertEquals(0, b.reservedBuffers());
        b.register();
        assertFalse(b.whenNoOpenStreams().isDone(), "a stream opened again: a new wait");
    }
}
