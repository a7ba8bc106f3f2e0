package org.camdoop.shuffle.daemon.status;

import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.camdoop.shuffle.service.CamdoopService;
import org.camdoop.shuffle.service.DaemonCounters;
import org.camdoop.shuffle.service.ShuffleStatus;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.LinkState;
import org.camdoop.torus.transport.TorusNode;
import org.camdoop.torus.transport.stream.BufferBudget;

/**
 * One daemon's figures at one moment, read from its torus node (on the node's event loop) and its shuffle service.
 * Immutable; taking one costs a task on the event loop, so it is taken per request, never on the data path.
 *
 * @param coord               the daemon's coordinate
 * @param shape               the torus it belongs to
 * @param links               its links, up or down, with the bytes sent on each
 * @param buffersReserved     receive buffers reserved by open streams now
 * @param buffersPeak         the most ever reserved at once
 * @param buffersTotal        the daemon's buffer budget, in buffers
 * @param segmentBytes        bytes per buffer
 * @param openStreams         streams holding a share of the budget
 * @param runningShuffles     shuffles with a vertex on this daemon
 * @param parkedStarts        STARTs waiting for their job's spec
 * @param droppedFrames       routed frames dropped here (unknown stream, no route, hop budget spent)
 * @param shuffles            the running shuffles, at most {@link #MAX_LISTED}
 * @param mapOutputsByJob     the jobs registered here and how many map outputs each registered, at most
 *                            {@link #MAX_LISTED} jobs, by job id
 * @param totals              running totals since the daemon started (starts, aborts, failures, combining, refusals)
 */
public record DaemonSnapshot(Coord coord, TorusShape shape, List<LinkState> links, int buffersReserved,
        int buffersPeak, int buffersTotal, int segmentBytes, int openStreams, int runningShuffles, int parkedStarts,
        long droppedFrames, List<ShuffleStatus> shuffles, SortedMap<String, Integer> mapOutputsByJob,
        DaemonCounters.Snapshot totals) {

    /** Shuffles and jobs listed in one snapshot at most: a status answer stays small however busy the daemon is. */
    public static final int MAX_LISTED = 200;

    public DaemonSnapshot {
        links = List.copyOf(links);
        shuffles = List.copyOf(shuffles);
        mapOutputsByJob = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(mapOutputsByJob));
    }

    /** Reads the figures now; {@code mapOutputsByJob} as the daemon's job registry knows them. */
    public static DaemonSnapshot of(TorusNode node, CamdoopService service, Map<String, Integer> mapOutputsByJob) {
        BufferBudget budget = node.budget();
        SortedMap<String, Integer> jobs = new TreeMap<>();
        for (Map.Entry<String, Integer> e : new TreeMap<>(mapOutputsByJob).entrySet()) {
            if (jobs.size() == MAX_LISTED) {
                break;
            }
            jobs.put(e.getKey(), e.getValue());
        }
        return new DaemonSnapshot(node.coord(), node.shape(), node.linkStates(), budget.reservedBuffers(),
                budget.peakReservedBuffers(), budget.totalBuffers(), budget.segmentBytes(), budget.openStreams(),
                service.runningShuffles(), service.parkedStarts(), node.droppedFrames(), service.shuffles(MAX_LISTED),
                jobs, service.counters().snapshot());
    }

    /** Links that are up. */
    public int linksUp() {
        return (int) links.stream().filter(LinkState::up).count();
    }

    /** "x,y,z", as the topology file writes coordinates. */
    public static String format(Coord c) {
        return c.x() + "," + c.y() + "," + c.z();
    }
}
