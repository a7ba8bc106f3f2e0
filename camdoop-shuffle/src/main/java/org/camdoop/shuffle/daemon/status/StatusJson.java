package org.camdoop.shuffle.daemon.status;

import org.camdoop.shuffle.protocol.Refusal;
import org.camdoop.shuffle.service.DaemonCounters;
import org.camdoop.shuffle.service.ShuffleStatus;
import org.camdoop.torus.transport.LinkState;

/**
 * A snapshot as the JSON object {@code camdoop status} and the status page read ({@code /status.json}). Stateless.
 *
 * <pre>
 * {"coord": "1,0,0", "shape": "3x3x3", "links_up": 6, "links": [{"port": "+x", "peer": "2,0,0", "up": true,
 *  "routed_around": false, "peer_incarnation": 1795728052751, "sent_bytes": 1234}, ...],
 *  "buffers": {"reserved": 0, "peak": 12, "total": 32768, "segment_bytes": 8192},
 *  "streams_open": 0, "shuffles_running": 1, "starts_parked": 0, "frames_dropped": 0,
 *  "shuffles": [{"job": "job_1_0001", "partition": 0, "root": "0,0,0", "vertices": 6, "finished": 2, "merging": 3,
 *    "waiting_for": []}],
 *  "jobs": [{"job": "job_1_0001", "map_outputs": 3}],
 *  "totals": {"root_starts": 1, "peer_starts": 4, "starts_refused": 0, "aborts": 0, "failures_declared": 0,
 *   "restarts": 0, "pauses": 0, "rejoins": 0, "records_combined": 1200, "credit_wait_ms": 35,
 *   "local_refusals": {"unknown_job": 0, "bad_proof": 0, ...}}}
 * </pre>
 */
public final class StatusJson {

    private StatusJson() {
    }

    public static String render(DaemonSnapshot s) {
        StringBuilder b = new StringBuilder("{");
        b.append("\"coord\": \"").append(DaemonSnapshot.format(s.coord())).append("\", ");
        b.append("\"shape\": \"").append(s.shape()).append("\", ");
        b.append("\"links_up\": ").append(s.linksUp()).append(", \"links\": [");
        for (int i = 0; i < s.links().size(); i++) {
            LinkState l = s.links().get(i);
            b.append(i == 0 ? "" : ", ").append("{\"port\": \"").append(l.port().label()).append("\", \"peer\": \"")
                    .append(DaemonSnapshot.format(l.peer())).append("\", \"up\": ").append(l.up())
                    .append(", \"routed_around\": ").append(l.routedAround())
                    .append(", \"peer_incarnation\": ").append(l.peerIncarnation())
                    .append(", \"sent_bytes\": ").append(l.bytesSent()).append('}');
        }
        b.append("], \"buffers\": {\"reserved\": ").append(s.buffersReserved()).append(", \"peak\": ")
                .append(s.buffersPeak()).append(", \"total\": ").append(s.buffersTotal())
                .append(", \"segment_bytes\": ").append(s.segmentBytes()).append("}, ");
        b.append("\"streams_open\": ").append(s.openStreams()).append(", ");
        b.append("\"shuffles_running\": ").append(s.runningShuffles()).append(", ");
        b.append("\"starts_parked\": ").append(s.parkedStarts()).append(", ");
        b.append("\"frames_dropped\": ").append(s.droppedFrames()).append(", \"shuffles\": [");
        for (int i = 0; i < s.shuffles().size(); i++) {
            ShuffleStatus sh = s.shuffles().get(i);
            b.append(i == 0 ? "" : ", ").append("{\"job\": ").append(quote(sh.jobId())).append(", \"partition\": ")
                    .append(sh.partition()).append(", \"root\": ").append(quote(sh.root())).append(", \"vertices\": ")
                    .append(sh.vertices()).append(", \"finished\": ").append(sh.verticesFinished())
                    .append(", \"merging\": ").append(sh.verticesMerging()).append(", \"waiting_for\": [")
                    .append(String.join(", ", sh.waitingFor().stream().map(StatusJson::quote).toList())).append("]}");
        }
        b.append("], \"jobs\": [");
        boolean first = true;
        for (var e : s.mapOutputsByJob().entrySet()) {
            b.append(first ? "" : ", ").append("{\"job\": ").append(quote(e.getKey())).append(", \"map_outputs\": ")
                    .append(e.getValue()).append('}');
            first = false;
        }
        DaemonCounters.Snapshot t = s.totals();
        b.append("], \"totals\": {\"root_starts\": ").append(t.rootStarts()).append(", \"peer_starts\": ")
                .append(t.peerStarts()).append(", \"starts_refused\": ").append(t.startsRefused())
                .append(", \"aborts\": ").append(t.aborts()).append(", \"failures_declared\": ")
                .append(t.failuresDeclared()).append(", \"restarts\": ").append(t.restarts())
                .append(", \"repairs\": ").append(t.repairs())
                .append(", \"pauses\": ").append(t.pauses())
                .append(", \"rejoins\": ").append(t.rejoins())
                .append(", \"records_combined\": ").append(t.recordsCombined())
                .append(", \"credit_wait_ms\": ").append(t.creditWaitNanos() / 1_000_000)
                .append(", \"local_refusals\": {");
        boolean firstRefusal = true;
        for (Refusal r : Refusal.values()) {
            b.append(firstRefusal ? "" : ", ").append('"').append(r.name().toLowerCase(java.util.Locale.ROOT))
                    .append("\": ").append(t.refusals().getOrDefault(r, 0L));
            firstRefusal = false;
        }
        return b.append("}}}").toString();
    }

    /** A JSON string: job ids come from tasks, so quotes, backslashes and control characters are escaped. */
    static String quote(String text) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20 || c == 0x7f || c == 0x2028 || c == 0x2029) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }
}
