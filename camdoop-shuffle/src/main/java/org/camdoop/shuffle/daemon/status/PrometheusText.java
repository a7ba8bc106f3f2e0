package org.camdoop.shuffle.daemon.status;

import org.camdoop.shuffle.protocol.Refusal;
import org.camdoop.shuffle.service.DaemonCounters;
import org.camdoop.torus.transport.LinkState;

/**
 * A snapshot in Prometheus' text exposition format (version 0.0.4): one {@code # HELP} and {@code # TYPE} line per
 * metric, then its samples; every sample labelled with the daemon's coordinate, link samples with the port and peer.
 * Label values are coordinates and port names, which need no escaping. Stateless.
 */
public final class PrometheusText {

    /** The content type Prometheus expects for this format. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private PrometheusText() {
    }

    public static String render(DaemonSnapshot s) {
        String self = "coord=\"" + DaemonSnapshot.format(s.coord()) + "\"";
        StringBuilder b = new StringBuilder();
        metric(b, "camdoop_link_up", "gauge", "1 if the torus link has completed its handshake and is up, else 0");
        for (LinkState l : s.links()) {
            b.append("camdoop_link_up{").append(linkLabels(self, l)).append("} ").append(l.up() ? 1 : 0).append('\n');
        }
        metric(b, "camdoop_link_routed_around", "gauge", "1 if every route avoids the torus link (it was down for half"
                + " the failure timeout, and is unused until a new run of an end's daemon connects across it; or the"
                + " neighbour is declared failed), else 0");
        for (LinkState l : s.links()) {
            b.append("camdoop_link_routed_around{").append(linkLabels(self, l)).append("} ")
                    .append(l.routedAround() ? 1 : 0).append('\n');
        }
        metric(b, "camdoop_link_sent_bytes_total", "counter",
                "bytes of stream frames this daemon wrote on the link (control frames and heartbeats not counted)");
        for (LinkState l : s.links()) {
            b.append("camdoop_link_sent_bytes_total{").append(linkLabels(self, l)).append("} ").append(l.bytesSent())
                    .append('\n');
        }
        gauge(b, self, "camdoop_links_up", "torus links up", s.linksUp());
        gauge(b, self, "camdoop_links", "torus links of this coordinate", s.links().size());
        gauge(b, self, "camdoop_buffers_reserved", "receive buffers reserved by open streams", s.buffersReserved());
        gauge(b, self, "camdoop_buffers_reserved_peak", "most receive buffers ever reserved at once",
                s.buffersPeak());
        gauge(b, self, "camdoop_buffers_total", "the daemon's receive buffer budget, in buffers", s.buffersTotal());
        gauge(b, self, "camdoop_buffer_segment_bytes", "bytes per receive buffer", s.segmentBytes());
        gauge(b, self, "camdoop_streams_open", "streams holding a share of the buffer budget", s.openStreams());
        gauge(b, self, "camdoop_shuffles_running", "shuffles with a vertex on this daemon", s.runningShuffles());
        gauge(b, self, "camdoop_starts_parked", "shuffle STARTs waiting for their job's spec", s.parkedStarts());
        gauge(b, self, "camdoop_jobs_registered", "jobs registered with this daemon (listed up to 200)",
                s.mapOutputsByJob().size());
        gauge(b, self, "camdoop_map_outputs_registered", "map outputs registered here by the jobs listed",
                s.mapOutputsByJob().values().stream().mapToLong(Integer::longValue).sum());
        DaemonCounters.Snapshot t = s.totals();
        counter(b, self, "camdoop_root_starts_total", "shuffles started with their root here", t.rootStarts());
        counter(b, self, "camdoop_peer_starts_total", "shuffle STARTs received from other daemons", t.peerStarts());
        counter(b, self, "camdoop_starts_refused_total", "STARTs refused (no proof for a job this daemon holds)",
                t.startsRefused());
        counter(b, self, "camdoop_aborts_total", "shuffles aborted while running here", t.aborts());
        counter(b, self, "camdoop_failures_declared_total", "servers this daemon declared failed",
                t.failuresDeclared());
        counter(b, self, "camdoop_restarts_total", "shuffles rooted here restarted after a server failed",
                t.restarts());
        counter(b, self, "camdoop_repairs_total", "shuffles rooted here whose trees a server failure touched were"
                + " rebuilt in place, the others running on", t.repairs());
        counter(b, self, "camdoop_pauses_total", "shuffles rooted here paused because map outputs died with a server"
                + " (they resume with the maps' new attempts)", t.pauses());
        counter(b, self, "camdoop_rejoins_total", "servers taken back into this daemon's view after a failure (a new"
                + " run of their daemon connected)", t.rejoins());
        counter(b, self, "camdoop_records_combined_total", "records this daemon's vertices combined away",
                t.recordsCombined());
        metric(b, "camdoop_credit_wait_seconds_total", "counter",
                "time this daemon's finished vertices waited for their outputs' credit");
        b.append("camdoop_credit_wait_seconds_total{").append(self).append("} ")
                .append(String.format(java.util.Locale.ROOT, "%.6f", t.creditWaitNanos() / 1e9)).append('\n');
        metric(b, "camdoop_local_refusals_total", "counter", "local requests refused, by reason");
        for (Refusal r : Refusal.values()) {
            b.append("camdoop_local_refusals_total{").append(self).append(",reason=\"")
                    .append(r.name().toLowerCase(java.util.Locale.ROOT)).append("\"} ")
                    .append(t.refusals().getOrDefault(r, 0L)).append('\n');
        }
        metric(b, "camdoop_frames_dropped_total", "counter",
                "routed frames dropped here: unknown stream, no route, hop budget spent");
        b.append("camdoop_frames_dropped_total{").append(self).append("} ").append(s.droppedFrames()).append('\n');
        return b.toString();
    }

    private static String linkLabels(String self, LinkState l) {
        return self + ",port=\"" + l.port().label() + "\",peer=\"" + DaemonSnapshot.format(l.peer()) + "\"";
    }

    private static void gauge(StringBuilder b, String self, String name, String help, long value) {
        sample(b, self, name, "gauge", help, value);
    }

    private static void counter(StringBuilder b, String self, String name, String help, long value) {
        sample(b, self, name, "counter", help, value);
    }

    private static void sample(StringBuilder b, String self, String name, String type, String help, long value) {
        metric(b, name, type, help);
        b.append(name).append('{').append(self).append("} ").append(value).append('\n');
    }

    private static void metric(StringBuilder b, String name, String type, String help) {
        b.append("# HELP ").append(name).append(' ').append(help).append('\n');
        b.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }
}
