package org.camdoop.shuffle.daemon.status;

import java.util.function.Supplier;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsInfo;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.Interns;
import org.camdoop.shuffle.protocol.Refusal;
import org.camdoop.shuffle.service.DaemonCounters;
import org.camdoop.torus.transport.LinkState;

/**
 * The daemon's figures as a Hadoop metrics2 source, for a daemon inside a NodeManager: registered with the
 * NodeManager's metrics system, it appears in the NodeManager's JMX ({@code Hadoop:service=NodeManager,
 * name=CamdoopDaemon}) and in whatever sinks and Prometheus endpoint the NodeManager publishes. One record
 * {@code CamdoopDaemon} (tag {@code Coord}) and one record {@code CamdoopLink} per link (tags {@code Coord},
 * {@code Port}, {@code Peer}); names as in {@code docs/operations.md}. A snapshot is taken per collection.
 */
public final class CamdoopMetricsSource implements MetricsSource {

    /** The name it is registered under. */
    public static final String NAME = "CamdoopDaemon";

    private static final MetricsInfo COORD = Interns.info("Coord", "the daemon's torus coordinate");
    private static final MetricsInfo PORT = Interns.info("Port", "the link's port on this daemon");
    private static final MetricsInfo PEER = Interns.info("Peer", "the neighbour's coordinate");

    private final Supplier<DaemonSnapshot> snapshot;

    /** UNKNOWN_JOB -> UnknownJob. */
    private static String toCamel(String constant) {
        StringBuilder b = new StringBuilder();
        for (String part : constant.split("_")) {
            b.append(part.charAt(0)).append(part.substring(1).toLowerCase(java.util.Locale.ROOT));
        }
        return b.toString();
    }

    public CamdoopMetricsSource(Supplier<DaemonSnapshot> snapshot) {
        this.snapshot = snapshot;
    }

    @Override
    public void getMetrics(MetricsCollector collector, boolean all) {
        DaemonSnapshot s;
        try {
            s = snapshot.get();
        } catch (RuntimeException stopping) {
            return; // the daemon is stopping: nothing to publish this round
        }
        String coord = DaemonSnapshot.format(s.coord());
        MetricsRecordBuilder d = collector.addRecord(NAME).setContext("camdoop").tag(COORD, coord);
        d.addGauge(Interns.info("LinksUp", "torus links up"), s.linksUp());
        d.addGauge(Interns.info("Links", "torus links of this coordinate"), s.links().size());
        d.addGauge(Interns.info("BuffersReserved", "receive buffers reserved by open streams"), s.buffersReserved());
        d.addGauge(Interns.info("BuffersReservedPeak", "most receive buffers ever reserved at once"),
                s.buffersPeak());
        d.addGauge(Interns.info("BuffersTotal", "the receive buffer budget, in buffers"), s.buffersTotal());
        d.addGauge(Interns.info("StreamsOpen", "streams holding a share of the budget"), s.openStreams());
        d.addGauge(Interns.info("ShufflesRunning", "shuffles with a vertex on this daemon"), s.runningShuffles());
        d.addGauge(Interns.info("StartsParked", "STARTs waiting for their job's spec"), s.parkedStarts());
        d.addGauge(Interns.info("JobsRegistered", "jobs registered with this daemon (listed up to 200)"),
                s.mapOutputsByJob().size());
        d.addGauge(Interns.info("MapOutputsRegistered", "map outputs registered here by the jobs listed"),
                s.mapOutputsByJob().values().stream().mapToLong(Integer::longValue).sum());
        d.addCounter(Interns.info("FramesDropped", "routed frames dropped here"), s.droppedFrames());
        DaemonCounters.Snapshot t = s.totals();
        d.addCounter(Interns.info("RootStarts", "shuffles started with their root here"), t.rootStarts());
        d.addCounter(Interns.info("PeerStarts", "shuffle STARTs received from other daemons"), t.peerStarts());
        d.addCounter(Interns.info("StartsRefused", "STARTs refused"), t.startsRefused());
        d.addCounter(Interns.info("Aborts", "shuffles aborted while running here"), t.aborts());
        d.addCounter(Interns.info("FailuresDeclared", "servers this daemon declared failed"), t.failuresDeclared());
        d.addCounter(Interns.info("Restarts", "shuffles rooted here restarted after a server failed"), t.restarts());
        d.addCounter(Interns.info("Repairs", "shuffles rooted here whose trees a server failure touched were"
                + " rebuilt in place"), t.repairs());
        d.addCounter(Interns.info("Pauses", "shuffles rooted here paused because map outputs died with a server"),
                t.pauses());
        d.addCounter(Interns.info("Rejoins", "servers taken back into the view after a failure"), t.rejoins());
        d.addCounter(Interns.info("RecordsCombined", "records this daemon's vertices combined away"),
                t.recordsCombined());
        d.addCounter(Interns.info("CreditWaitMillis", "time finished vertices waited for their outputs' credit"),
                t.creditWaitNanos() / 1_000_000);
        for (Refusal r : Refusal.values()) {
            String name = "LocalRefusals" + toCamel(r.name());
            d.addCounter(Interns.info(name, "local requests refused: " + r.name()), t.refusals().getOrDefault(r, 0L));
        }
        for (LinkState l : s.links()) {
            collector.addRecord("CamdoopLink").setContext("camdoop").tag(COORD, coord)
                    .tag(PORT, l.port().label()).tag(PEER, DaemonSnapshot.format(l.peer()))
                    .addGauge(Interns.info("Up", "1 if the link is up"), l.up() ? 1 : 0)
                    .addCounter(Interns.info("SentBytes", "bytes of stream frames this daemon wrote on the link"),
                            l.bytesSent());
        }
    }
}
