package org.camdoop.torus.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.Port;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.link.Link;
import org.camdoop.torus.transport.link.ReconnectBackoff;
import org.camdoop.torus.transport.link.TransitAllowance;
import org.camdoop.torus.transport.stream.LinkScheduler;
import org.junit.jupiter.api.Test;

/**
 * Runs of a neighbour's daemon in the failure detector, on an embedded event loop with its clock frozen: a link that
 * comes up to another run, or a probe answered by another run, declares the earlier run failed at once, and each run
 * is declared once.
 */
class FailureDetectorTest {

    private static final TorusShape SHAPE = new TorusShape(3, 1, 1);
    private static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final EmbeddedChannel loop = new EmbeddedChannel();
    private final List<String> declared = new ArrayList<>();
    private final List<Integer> probed = new ArrayList<>();
    private final List<String> cut = new ArrayList<>();
    /** The servers out of the node's failure view (declared failed, here or by another daemon). */
    private final java.util.Set<Integer> outOfView = new java.util.HashSet<>();
    private final FailureDetector detector;
    private final Link link;

    FailureDetectorTest() {
        loop.freezeTime();
        detector = new FailureDetector(SHAPE, 0, loop.eventLoop(), TIMEOUT_NANOS, List.of(new TransportListener() {
            @Override
            public void serverFailed(Coord server, long incarnation) {
                declared.add(server + "@" + incarnation);
            }

            @Override
            public void linkCut(Port port, Coord peer, long peerIncarnation) {
                cut.add(peer + "@" + peerIncarnation);
            }
        }), new FailureDetector.Actions() {
            @Override
            public void routeAround(Link l) {
            }

            @Override
            public void probe(int peer) {
                probed.add(peer);
            }
        }, outOfView::contains);
        link = new Link(Port.PLUS_X, 0, 1, null, null, loop.eventLoop(), new LinkScheduler(1024, job -> 1), null,
                new ReconnectBackoff(1_000_000, 10_000_000), new Link.Listener() {
                    @Override
                    public void linkUp(Link l) {
                    }

                    @Override
                    public void linkDown(Link l, String reason) {
                    }
                }, new TransitAllowance(1 << 20), 1 << 20);
    }

    private EmbeddedChannel connection;

    private void connect(long incarnation) {
        connection = new EmbeddedChannel();
        link.established(connection, incarnation);
        detector.up(link);
        detector.restarted(link);
    }

    /** The connection drops: the link goes down and the detector starts the two halves of the failure timeout. */
    private void disconnect() {
        link.closed(connection, Link.REASON_CONNECTION_CLOSED);
        detector.down(link, Link.REASON_CONNECTION_CLOSED);
    }

    @Test
    void aLinkUpToAnotherRunDeclaresTheEarlierRunAtOnceAndOnlyOnce() {
        connect(10);
        connect(10); // the same run reconnecting: nothing
        assertEquals(List.of(), declared);
        connect(20);
        assertEquals(List.of("1,0,0@10"), declared, "declared at once, not after the failure timeout");
        connect(30);
        assertEquals(List.of("1,0,0@10", "1,0,0@20"), declared);
    }

    @Test
    void aRunDeclaredAtItsTimeoutIsNotDeclaredAgainWhenTheNextRunConnects() {
        connect(10);
        disconnect();
        loop.advanceTimeBy(TIMEOUT_NANOS + 1, TimeUnit.NANOSECONDS);
        loop.runScheduledPendingTasks();
        loop.advanceTimeBy(TIMEOUT_NANOS + 1, TimeUnit.NANOSECONDS);
        loop.runScheduledPendingTasks();
        assertEquals(List.of("1,0,0@10"), declared, "silent for the failure timeout");
        connect(20);
        assertEquals(List.of("1,0,0@10"), declared, "run 10 was declared already");
    }

    @Test
    void aDialRefusedAfterTheLinkWasUpDeclaresTheRunItKnewAtOnceButNotBeforeAnyRunConnected() {
        detector.down(link, Link.REASON_REFUSED); // a neighbour not started yet: no run to declare
        assertEquals(List.of(), declared);
        connect(10);
        disconnect();
        detector.down(link, Link.REASON_REFUSED);
        assertEquals(List.of("1,0,0@10"), declared, "nothing listens there: run 10 is gone, declared at once");
        detector.down(link, Link.REASON_REFUSED);
        loop.advanceTimeBy(2 * TIMEOUT_NANOS, TimeUnit.NANOSECONDS);
        loop.runScheduledPendingTasks();
        assertEquals(List.of("1,0,0@10"), declared, "declared once, and the timeout does not declare it again");
    }

    @Test
    void aProbeAnsweredByAnotherRunDeclaresTheSuspectedRunAndTheSameRunKeepsItAlive() {
        connect(10);
        disconnect();
        loop.advanceTimeBy(TIMEOUT_NANOS / 2 + 1, TimeUnit.NANOSECONDS);
        loop.runScheduledPendingTasks(); // routed around, probing
        assertEquals(List.of(1), probed.subList(0, 1));
        detector.answered(1, 10);
        loop.advanceTimeBy(TIMEOUT_NANOS, TimeUnit.NANOSECONDS);
        loop.runScheduledPendingTasks();
        assertEquals(List.of(), declared, "the same run answered around the cut link: alive");

        connect(11);
        assertEquals(List.of("1,0,0@10"), declared, "a new run connected: run 10 is gone");
        disconnect();
        loop.advanceTimeBy(TIMEOUT_NANOS / 2 + 1, TimeUnit.NANOSECONDS);
        loop.runScheduledPendingTasks();
        detector.answered(1, 12);
        assertEquals(List.of("1,0,0@10", "1,0,0@11"), declared, "another run answered: run 11 is declared at once");
    }

    @Test
    void aLinkStillDownWhenItsServerWasDeclaredFailedElsewhereIsNeitherCutNorProbed() {
        connect(10);
        disconnect();
        outOfView.add(1); // another neighbour's dial was refused: run 10 is out of the view
        loop.advanceTimeBy(TIMEOUT_NANOS / 2 + 1, TimeUnit.NANOSECONDS);
        loop.runScheduledPendingTasks();
        loop.advanceTimeBy(TIMEOUT_NANOS, TimeUnit.NANOSECONDS);
        loop.runScheduledPendingTasks();
        assertEquals(List.of(), cut, "a cut of the link to a run out of the view is no news");
        assertEquals(List.of(), probed);
        assertEquals(List.of(), declared, "declared by the other neighbour, not again here");

        // A later run rejoins through its other links, and this link stays down (a broken cable): cut as any other.
        outOfView.clear();
        detector.viewChanged();
        loop.advanceTimeBy(TIMEOUT_NANOS - 1, TimeUnit.NANOSECONDS);
        loop.runScheduledPendingTasks();
        assertEquals(List.of(), cut, "a redial has the whole timeout from the rejoin to bring the link up");
        loop.advanceTimeBy(2, TimeUnit.NANOSECONDS);
        loop.runScheduledPendingTasks();
        assertEquals(List.of("1,0,0@10"), cut, "cut until a later run connects across it");
        assertEquals(List.of(1), probed.subList(0, 1), "and the neighbour asked around it");
    }

    @Test
    void aLinkThatComesBackToTheRejoinedRunIsNotCut() {
        connect(10);
        disconnect();
        outOfView.add(1);
        loop.advanceTimeBy(TIMEOUT_NANOS / 2 + 1, TimeUnit.NANOSECONDS);
        loop.runScheduledPendingTasks();
        outOfView.clear();
        detector.viewChanged();
        connect(11);
        loop.advanceTimeBy(TIMEOUT_NANOS, TimeUnit.NANOSECONDS);
        loop.runScheduledPendingTasks();
        assertEquals(List.of(), cut);
        assertEquals(List.of("1,0,0@10"), declared, "run 10 replaced by run 11 on this link: declared at once");
    }

    @Test
    void aNeighbourDeclaredByARefusedDialIsStillCutWhenItRejoinsBehindABrokenLink() {
        connect(10);
        disconnect();
        detector.down(link, Link.REASON_REFUSED);
        assertEquals(List.of("1,0,0@10"), declared, "refused: declared at once");
        outOfView.add(1);
        loop.advanceTimeBy(2 * TIMEOUT_NANOS, TimeUnit.NANOSECONDS);
        loop.runScheduledPendingTasks();
        assertEquals(List.of(), cut, "out of the view: no cut");

        outOfView.clear(); // run 11 rejoined through its other links; this one stays down
        detector.viewChanged();
        loop.advanceTimeBy(TIMEOUT_NANOS + 1, TimeUnit.NANOSECONDS);
        loop.runScheduledPendingTasks();
        assertEquals(List.of("1,0,0@10"), cut, "still down a timeout after the rejoin: cut");
        detector.answered(1, 11);
        loop.advanceTimeBy(TIMEOUT_NANOS, TimeUnit.NANOSECONDS);
        loop.runScheduledPendingTasks();
        assertEquals(List.of("1,0,0@10"), declared, "run 11 answers around the cut link: alive, and run 10 not again");
    }
}
