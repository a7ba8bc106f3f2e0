package org.camdoop.shuffle.daemon.status;

import org.camdoop.torus.transport.LinkState;

/**
 * A snapshot as the JSON object {@code camdoop status} reads ({@code /status.json}). Every string in it is a
 * coordinate, a shape or a port name (digits, commas, 'x', signs), so nothing needs escaping. Stateless.
 *
 * <pre>
 * {"coord": "1,0,0", "shape": "3x3x3", "links_up": 6, "links": [{"port": "+x", "peer": "2,0,0", "up": true,
 *  "sent_bytes": 1234}, ...], "buffers": {"reserved": 0, "peak": 12, "total": 32768, "segment_bytes": 8192},
 *  "streams_open": 0, "shuffles_running": 0, "starts_parked": 0, "frames_dropped": 0}
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
                    .append(", \"sent_bytes\": ").append(l.bytesSent()).append('}');
        }
        b.append("], \"buffers\": {\"reserved\": ").append(s.buffersReserved()).append(", \"peak\": ")
                .append(s.buffersPeak()).append(", \"total\": ").append(s.buffersTotal()).append(", \"segment_bytes\": ")
                .append(s.segmentBytes()).append("}, ");
        b.append("\"streams_open\": ").append(s.openStreams()).append(", ");
        b.append("\"shuffles_running\": ").append(s.runningShuffles()).append(", ");
        b.append("\"starts_parked\": ").append(s.parkedStarts()).append(", ");
        b.append("\"frames_dropped\": ").append(s.droppedFrames()).append('}');
        return b.toString();
    }
}
