package org.camdoop.shuffle.daemon.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.function.Supplier;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.apache.hadoop.metrics2.MetricsRecord;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.Port;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.LinkState;
import org.junit.jupiter.api.Test;

/** The endpoint's paths, methods and failure answer, and the metrics2 records, from a fixed snapshot. */
class StatusHttpServerTest {

    private static final DaemonSnapshot SNAPSHOT = new DaemonSnapshot(new Coord(1, 0, 0), TorusShape.parse("3x1x1"),
            List.of(new LinkState(Port.PLUS_X, new Coord(2, 0, 0), true, 4096, false, 7),
                    new LinkState(Port.MINUS_X, new Coord(0, 0, 0), false, 0, true, 5)),
            3, 17, 32768, 8192, 2, 1, 0, 5,
            List.of(new org.camdoop.shuffle.service.ShuffleStatus("job_1_0001", 2, "0,0,0", 6, 2, 3),
                    new org.camdoop.shuffle.service.ShuffleStatus("job_1_0001", 3, "1,0,0", 0, 0, 0,
                            List.of("attempt_1_0001_m_000004_0"))),
            new java.util.TreeMap<>(java.util.Map.of("job_1_0001", 3, "job_\"odd\\\n", 0)),
            new org.camdoop.shuffle.service.DaemonCounters.Snapshot(1, 4, 0, 2, 1, 0, 0, 0, 1200, 35_500_000,
                    java.util.Map.of(
                    org.camdoop.shuffle.protocol.Refusal.UNKNOWN_JOB, 0L, org.camdoop.shuffle.protocol.Refusal.BAD_PROOF,
                    3L, org.camdoop.shuffle.protocol.Refusal.MISSING_JARS, 0L,
                    org.camdoop.shuffle.protocol.Refusal.REFUSED, 0L, org.camdoop.shuffle.protocol.Refusal.MALFORMED,
                    7L), 2));

    private final HttpClient client = HttpClient.newHttpClient();

    private HttpResponse<String> call(StatusHttpServer s, String method, String path) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.address().getPort() + path))
                .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void servesMetricsAndStatusAndNothingElse() throws Exception {
        try (StatusHttpServer s = StatusHttpServer.start(new InetSocketAddress("127.0.0.1", 0), () -> SNAPSHOT,
                () -> "{\"view\": 1}")) {
            HttpResponse<String> metrics = call(s, "GET", "/metrics");
            assertEquals(200, metrics.statusCode());
            assertTrue(metrics.body().contains("camdoop_link_up{coord=\"1,0,0\",port=\"-x\",peer=\"0,0,0\"} 0\n"),
                    metrics.body());
            assertTrue(metrics.body().contains(
                    "camdoop_link_sent_bytes_total{coord=\"1,0,0\",port=\"+x\",peer=\"2,0,0\"} 4096\n"));
            assertTrue(metrics.body().contains(
                    "camdoop_link_routed_around{coord=\"1,0,0\",port=\"-x\",peer=\"0,0,0\"} 1\n"), metrics.body());
            assertTrue(metrics.body().contains("# TYPE camdoop_frames_dropped_total counter\n"
                    + "camdoop_frames_dropped_total{coord=\"1,0,0\"} 5\n"), metrics.body());
            assertTrue(metrics.body().contains("camdoop_buffers_reserved_peak{coord=\"1,0,0\"} 17\n"));
            assertTrue(metrics.body().contains("camdoop_map_outputs_registered{coord=\"1,0,0\"} 3\n"));
            assertTrue(metrics.body().contains("# TYPE camdoop_aborts_total counter\ncamdoop_aborts_total{coord=\"1,0,0\"} 2\n"));
            assertTrue(metrics.body().contains(
                    "camdoop_local_refusals_total{coord=\"1,0,0\",reason=\"malformed\"} 7\n"), metrics.body());
            assertTrue(metrics.body().contains("camdoop_credit_wait_seconds_total{coord=\"1,0,0\"} 0.035500\n"));

            HttpResponse<String> status = call(s, "GET", "/status.json");
            assertEquals(200, status.statusCode());
            assertEquals("application/json", status.headers().firstValue("Content-Type").orElseThrow());
            assertEquals("{\"coord\": \"1,0,0\", \"shape\": \"3x1x1\", \"links_up\": 1, \"links\": [{\"port\": \"+x\","
                    + " \"peer\": \"2,0,0\", \"up\": true, \"routed_around\": false, \"peer_incarnation\": 7,"
                    + " \"sent_bytes\": 4096}, {\"port\": \"-x\", \"peer\": \"0,0,0\", \"up\": false,"
                    + " \"routed_around\": true, \"peer_incarnation\": 5, \"sent_bytes\": 0}],"
                    + " \"buffers\": {\"reserved\": 3, \"peak\": 17, \"total\":"
                    + " 32768, \"segment_bytes\": 8192}, \"streams_open\": 2, \"shuffles_running\": 1,"
                    + " \"starts_parked\": 0, \"frames_dropped\": 5, \"shuffles\": [{\"job\": \"job_1_0001\","
                    + " \"partition\": 2, \"root\": \"0,0,0\", \"vertices\": 6, \"finished\": 2, \"merging\": 3,"
                    + " \"waiting_for\": []}, {\"job\": \"job_1_0001\", \"partition\": 3, \"root\": \"1,0,0\","
                    + " \"vertices\": 0, \"finished\": 0, \"merging\": 0,"
                    + " \"waiting_for\": [\"attempt_1_0001_m_000004_0\"]}],"
                    + " \"jobs\": [{\"job\": \"job_\\\"odd\\\\\\u000a\", \"map_outputs\": 0},"
                    + " {\"job\": \"job_1_0001\", \"map_outputs\": 3}], \"totals\": {\"root_starts\": 1,"
                    + " \"peer_starts\": 4, \"starts_refused\": 0, \"aborts\": 2, \"failures_declared\": 1,"
                    + " \"restarts\": 0, \"repairs\": 2, \"pauses\": 0, \"rejoins\": 0, \"records_combined\": 1200,"
                    + " \"credit_wait_ms\": 35,"
                    + " \"local_refusals\": {\"unknown_job\": 0, \"bad_proof\": 3,"
                    + " \"missing_jars\": 0, \"refused\": 0, \"malformed\": 7}}}\n", status.body());

            assertEquals(404, call(s, "GET", "/jobs").statusCode());
            HttpResponse<String> page = call(s, "GET", "/");
            assertEquals(200, page.statusCode());
            assertEquals("text/html; charset=utf-8", page.headers().firstValue("Content-Type").orElseThrow());
            assertTrue(page.body().contains("fetch('torus.json'"), "the page draws /torus.json");
            assertEquals("{\"view\": 1}\n", call(s, "GET", "/torus.json").body());
            HttpResponse<String> post = call(s, "POST", "/metrics");
            assertEquals(405, post.statusCode());
            assertEquals("GET, HEAD", post.headers().firstValue("Allow").orElseThrow());
        }
    }

    @Test
    void aDaemonThatDoesNotAnswerIsA503SayingSo() throws Exception {
        Supplier<DaemonSnapshot> stuck = () -> {
            throw new IllegalStateException("node 1,0,0 did not answer: timeout");
        };
        try (StatusHttpServer s = StatusHttpServer.start(new InetSocketAddress("127.0.0.1", 0), stuck, () -> {
            throw new IllegalStateException("no view");
        })) {
            HttpResponse<String> r = call(s, "GET", "/status.json");
            assertEquals(503, r.statusCode());
            assertEquals("daemon not answering: node 1,0,0 did not answer: timeout\n", r.body());
        }
    }

    @Test
    void theMetricsSourceWritesADaemonRecordAndOneRecordPerLink() {
        MetricsCollectorImpl collector = new MetricsCollectorImpl();
        new CamdoopMetricsSource(() -> SNAPSHOT).getMetrics(collector, true);
        List<MetricsRecord> records = new java.util.ArrayList<>(collector.getRecords());
        assertEquals(List.of("CamdoopDaemon", "CamdoopLink", "CamdoopLink"),
                records.stream().map(MetricsRecord::name).toList());
        assertEquals(1, value(records.get(0), "LinksUp"));
        assertEquals(17, value(records.get(0), "BuffersReservedPeak"));
        assertEquals(5, value(records.get(0), "FramesDropped"));
        assertEquals(1200, value(records.get(0), "RecordsCombined"));
        assertEquals(3, value(records.get(0), "LocalRefusalsBadProof"));
        assertEquals(4096, value(records.get(1), "SentBytes"));
        assertEquals(0, value(records.get(2), "Up"));
        assertEquals("-x", records.get(2).tags().stream().filter(t -> t.name().equals("Port")).findFirst()
                .orElseThrow().value());
    }

    private static long value(MetricsRecord r, String name) {
        for (AbstractMetric m : r.metrics()) {
            if (m.name().equals(name)) {
                return m.value().longValue();
            }
        }
        throw new AssertionError(name + " not in " + r);
    }
}
