package org.camdoop.shuffle.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import org.camdoop.shuffle.service.net.MembershipMessages.LinkRuns;
import org.camdoop.shuffle.service.net.MembershipMessages.ServerRun;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.TorusShape;
import org.junit.jupiter.api.Test;

class MembershipTest {

    private static final TorusShape SHAPE = new TorusShape(3, 3, 1);
    /** Server 4 (1,1,0) and its neighbours 1, 3, 5 and 7; this daemon is server 0. */
    private static final int R = 4;

    private static Membership fresh() {
        return new Membership(SHAPE, 0, 100);
    }

    @Test
    void aLaterRunOfAFailedServerConnectingBringsItBackAndAStaleFailureChangesNothing() {
        Membership m = fresh();
        assertEquals(Membership.Failure.OUT, m.failed(new ServerRun(R, 10)));
        assertTrue(m.isFailed(R));
        assertEquals(Membership.Failure.KNOWN, m.failed(new ServerRun(R, 10)), "the same report twice is no news");
        // Its neighbour 1 reconnects to the restarted daemon, run 20.
        assertTrue(m.up(new LinkRuns(1, 5, R, 20)));
        assertFalse(m.isFailed(R));
        // The old run's failure reaches this daemon again, late: no news, and no change.
        assertEquals(Membership.Failure.KNOWN, m.failed(new ServerRun(R, 10)));
        assertFalse(m.isFailed(R));
        // The new run dies too: that is news.
        assertEquals(Membership.Failure.OUT, m.failed(new ServerRun(R, 20)));
        assertTrue(m.isFailed(R));
    }

    @Test
    void newsOfAnEndedRunAfterALaterRunConnectedLeavesTheServerInAndNamesTheLaterRun() {
        // The daemon restarted before anyone declared its earlier run failed (a supervisor restarted it at once).
        Membership m = fresh();
        m.up(new LinkRuns(1, 5, R, 10));
        assertFalse(m.up(new LinkRuns(3, 6, R, 20)), "a later run connecting where nothing was failed changes nothing");
        assertEquals(Membership.Failure.LATER_RUN_LIVE, m.failed(new ServerRun(R, 10)),
                "the earlier run's end is news (its work must be redone), but the server stays in");
        assertFalse(m.isFailed(R));
        assertEquals(List.of(new LinkRuns(3, 6, R, 20).ordered()), m.upsAfter(new ServerRun(R, 10)),
                "the record to pass on");
        assertEquals(Membership.Failure.KNOWN, m.failed(new ServerRun(R, 10)));
    }

    /**
     * What a daemon passes on although it changes nothing of its own view: the up of a later run on a link whose end
     * failed (another link showed the rejoin first; a daemon that heard a cut of this link late needs it), and a cut
     * naming a later run than the cut it knows (a daemon that heard the up in between needs it). Nothing else: a
     * torus's start floods no ups, and a record already known is not news again.
     */
    @Test
    void upsOfLaterRunsAfterAFailureAndLaterCutsArePassedOnOnce() {
        Membership m = fresh();
        assertFalse(m.isLiftingNews(new LinkRuns(1, 5, R, 10)), "no failure or cut on record: a start floods nothing");
        m.up(new LinkRuns(1, 5, R, 10));
        m.up(new LinkRuns(3, 6, R, 10));
        m.failed(new ServerRun(R, 10));
        assertTrue(m.up(new LinkRuns(1, 5, R, 20)), "the rejoin itself changes the view");
        assertTrue(m.isLiftingNews(new LinkRuns(3, 6, R, 20)), "a later run on another of its links");
        assertFalse(m.up(new LinkRuns(3, 6, R, 20)), "changes nothing here");
        assertFalse(m.isLiftingNews(new LinkRuns(3, 6, R, 20)), "once known, not passed on again");
        assertFalse(m.isLiftingNews(new LinkRuns(3, 6, R, 10)), "an earlier record is no news");

        assertTrue(m.isLaterCut(new LinkRuns(5, 7, R, 10)));
        assertTrue(m.cut(new LinkRuns(5, 7, R, 10)));
        assertFalse(m.isLaterCut(new LinkRuns(5, 7, R, 10)));
        assertTrue(m.isLaterCut(new LinkRuns(5, 7, R, 20)), "the same link cut again under the later run");
        assertFalse(m.cut(new LinkRuns(5, 7, R, 20)), "changes nothing where the first cut stands");
        assertFalse(m.isLaterCut(new LinkRuns(5, 7, R, 20)));
    }

    @Test
    void theSameRunReconnectingDoesNotBringAFailedServerBack() {
        Membership m = fresh();
        m.up(new LinkRuns(1, 5, R, 10));
        m.failed(new ServerRun(R, 10));
        assertFalse(m.up(new LinkRuns(3, 6, R, 10)), "a run declared failed stays failed");
        assertTrue(m.isFailed(R));
    }

    @Test
    void aServerDeclaredBeforeItsLinkEverCameUpIsBackWithItsFirstConnection() {
        Membership m = fresh();
        m.failed(new ServerRun(R, 0));
        assertTrue(m.isFailed(R));
        assertTrue(m.up(new LinkRuns(R, 1, 5, 7)));
        assertFalse(m.isFailed(R));
    }

    @Test
    void aCutIsLiftedOnlyByTheLinkComingUpBetweenALaterRunOfAnEnd() {
        Membership m = fresh();
        assertTrue(m.cut(new LinkRuns(R, 10, 1, 5)));
        assertTrue(m.isCut(1, R) && m.isCut(R, 1));
        assertFalse(m.up(new LinkRuns(1, 5, R, 10)), "the same two runs reconnecting: still routed around");
        assertFalse(m.up(new LinkRuns(R, 20, 3, 6)), "the restarted end connecting elsewhere lifts nothing");
        assertTrue(m.isCut(1, R));
        assertTrue(m.up(new LinkRuns(1, 5, R, 20)));
        assertFalse(m.isCut(1, R));
        assertFalse(m.cut(new LinkRuns(R, 10, 1, 5)), "a cut of the earlier runs arriving late is stale");
        assertTrue(m.cut(new LinkRuns(1, 5, R, 20)), "cut again between the new runs");
        assertTrue(m.isCut(1, R));
    }

    @Test
    void theViewHasTheFailedServersAndCutLinksOverTheVacantOnes() {
        Membership m = fresh();
        m.failed(new ServerRun(R, 10));
        m.cut(new LinkRuns(1, 5, 2, 6));
        FailureView base = FailureView.occupied(SHAPE, 8);
        FailureView v = m.applyTo(base);
        assertTrue(v.isFailed(R) && v.isVacant(8) && v.isCut(1, 2));
        assertEquals(7, v.liveCount());
        m.up(new LinkRuns(1, 5, R, 11));
        m.up(new LinkRuns(2, 7, 1, 5));
        assertEquals(base, m.applyTo(base));
    }

    /**
     * Two daemons that hear the same reports in different orders hold the same view: the reports are merged by
     * maximum. 200 shuffles of one history of failures, cuts, rejoins and reconnections.
     */
    @Test
    void theViewDoesNotDependOnTheOrderTheReportsArriveIn() {
        List<Consumer<Membership>> history = List.of(
                m -> m.up(new LinkRuns(1, 5, R, 10)),
                m -> m.cut(new LinkRuns(1, 5, R, 10)),
                m -> m.failed(new ServerRun(R, 10)),
                m -> m.up(new LinkRuns(3, 6, R, 20)),
                m -> m.up(new LinkRuns(1, 5, R, 20)),
                m -> m.failed(new ServerRun(7, 3)),
                m -> m.cut(new LinkRuns(7, 3, 8, 9)),
                m -> m.cut(new LinkRuns(2, 4, 5, 8)),
                m -> m.up(new LinkRuns(2, 4, 5, 8)),
                m -> m.failed(new ServerRun(R, 15)));
        FailureView base = FailureView.none(SHAPE);
        Membership inOrder = fresh();
        history.forEach(e -> e.accept(inOrder));
        FailureView expected = inOrder.applyTo(base);
        assertFalse(expected.isFailed(R), "run 20 is up; runs 10 and 15 failed");
        assertTrue(expected.isFailed(7) && expected.isCut(7, 8) && expected.isCut(2, 5));
        assertFalse(expected.isCut(1, R));
        Random random = new Random(42);
        for (int i = 0; i < 200; i++) {
            List<Consumer<Membership>> shuffled = new ArrayList<>(history);
            Collections.shuffle(shuffled, random);
            Membership m = fresh();
            shuffled.forEach(e -> e.accept(m));
            assertEquals(expected, m.applyTo(base), "order " + i);
        }
    }
}
