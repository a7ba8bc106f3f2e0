package org.camdoop.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.camdoop.shuffle.daemon.CamdoopDaemon;
import org.camdoop.shuffle.daemon.DaemonConfig;
import org.camdoop.shuffle.daemon.EmbeddedTorus;
import org.camdoop.shuffle.daemon.status.StatusHttpServer;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.Port;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.TransportConfig;
import org.camdoop.torus.transport.TransportListener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three real daemons on loopback TCP, each on its own loopback address as on three hosts, all with the same status
 * port: {@code camdoop status} sees them healthy, their Prometheus endpoints publish the links, and a daemon that
 * stops turns the table and the exit status.
 */
class StatusCommandTest {

    @TempDir
    Path dir;

    private static int freePort(String host) throws Exception {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName(host))) {
            return probe.getLocalPort();
        }
    }

    private Configuration conf(Path topology, String coord, int httpPort) {
        Configuration c = new Configuration(false);
        c.set("camdoop.topology.file", topology.toString());
        c.set("camdoop.cluster.secret", "status-test-cluster-secret-of-32-bytes-or-more");
        c.set(DaemonConfig.COORDINATE, coord);
        c.set(DaemonConfig.VERTEX_THREADS, "1");
        c.setInt(DaemonConfig.HTTP_PORT, httpPort);
        c.set("camdoop.daemon.jar-cache.dir", dir.resolve("jars-" + coord).toString());
        c.set("camdoop.daemon.local-dirs", dir.resolve("nm-" + coord.replace(',', '_')).toString());
        return c;
    }

    @Test
    @Timeout(120)
    void statusAndMetricsOfThreeDaemonsThenOneStops() throws Exception {
        StringBuilder t = new StringBuilder("shape 3x1x1\n");
        for (int s = 0; s < 3; s++) {
            String host = "127.0.0." + (s + 1);
            t.append(s).append(",0,0 ").append(host).append(':').append(freePort(host)).append('\n');
        }
        Path topology = dir.resolve("topology");
        Files.writeString(topology, t);
        int http = freePort("127.0.0.1");
        List<CamdoopDaemon> daemons = new ArrayList<>();
        try {
            for (int s = 0; s < 3; s++) {
                daemons.add(CamdoopDaemon.start(conf(topology, s + ",0,0", http)));
            }
            for (CamdoopDaemon d : daemons) {
                assertTrue(d.node().awaitLinksUp(d.service().view(), Duration.ofSeconds(60)), "links not up");
                assertEquals(http, d.statusAddress().orElseThrow().getPort());
            }

            CliRun healthy = CliRun.of("status", "--topology", topology.toString(), "--http-port", "" + http);
            assertEquals(0, healthy.status(), healthy.out() + healthy.err());
            assertTrue(healthy.out().contains("3 of 3 daemons up, 6 of 6 links between them up: healthy"),
                    healthy.out());
            assertTrue(healthy.out().lines().anyMatch(
                    l -> l.matches("1,0,0 +127\\.0\\.0\\.2:" + http + " +yes +2/2 +0 +0/\\d+/\\d+")), healthy.out());

            String metrics = get("http://127.0.0.1:" + http + "/metrics");
            assertTrue(metrics.contains("# TYPE camdoop_link_up gauge\n"), metrics);
            assertTrue(metrics.contains("camdoop_link_up{coord=\"0,0,0\",port=\"+x\",peer=\"1,0,0\"} 1\n"), metrics);
            assertTrue(metrics.contains("camdoop_link_up{coord=\"0,0,0\",port=\"-x\",peer=\"2,0,0\"} 1\n"), metrics);
            assertTrue(metrics.contains("camdoop_links_up{coord=\"0,0,0\"} 2\n"), metrics);
            // No shuffle ran: no stream frame was sent yet (control frames and heartbeats are not counted).
            assertTrue(metrics.contains("camdoop_link_sent_bytes_total{coord=\"0,0,0\",port=\"+x\",peer=\"1,0,0\"} 0\n"),
                    metrics);

            // Stop 2,0,0 and wait for 0,0,0 to see its link go down (an event, not a sleep).
            CountDownLatch down = new CountDownLatch(2);
            TransportListener onDown = new TransportListener() {
                @Override
                public void linkDown(Port port, Coord peer, String reason) {
                    if (peer.equals(new Coord(2, 0, 0))) {
                        down.countDown();
                    }
                }
            };
            daemons.get(0).node().addListener(onDown);
            daemons.get(1).node().addListener(onDown);
            daemons.remove(2).close();
            assertTrue(down.await(60, TimeUnit.SECONDS), "the links to the stopped daemon never went down");

            CliRun sick = CliRun.of("status", "--topology", topology.toString(), "--http-port", "" + http,
                    "--timeout-ms", "2000");
            assertEquals(CamdoopCli.FAILED, sick.status(), sick.out() + sick.err());
            assertTrue(sick.out().contains("2 of 3 daemons up, 2 of 4 links between them up: NOT HEALTHY"), sick.out());
            assertTrue(sick.out().lines().anyMatch(
                    l -> l.matches("2,0,0 +127\\.0\\.0\\.3:" + http + " +NO +ConnectException.*")), sick.out());

            CliRun json = CliRun.of("status", "--topology", topology.toString(), "--http-port", "" + http, "--json");
            JsonNode root = new ObjectMapper().readTree(json.out());
            assertEquals(CamdoopCli.FAILED, json.status());
            assertEquals(false, root.get("healthy").asBoolean());
            assertEquals(2, root.get("up").asInt());
            assertEquals("0,0,0", root.get("servers").get(0).get("status").get("coord").asText());
            assertEquals(false, root.get("servers").get(2).get("up").asBoolean());
        } finally {
            for (CamdoopDaemon d : daemons) {
                d.close();
            }
        }
    }

    /**
     * An embedded 3x3x3 torus (27 daemons in this JVM over the real transport), each daemon's status endpoint on its
     * own loopback address: {@code camdoop status} reads all 162 link ends up, their metrics answer, and a cut link
     * turns both its ends down and the exit status to 1.
     */
    @Test
    @Timeout(120)
    void statusOfAnEmbeddedTorusAndACutLink() throws Exception {
        TorusShape shape = TorusShape.parse("3x3x3");
        // A cut link is held down 8 s before its redial (a start-up dial that came too early waits as long).
        TransportConfig config = TransportConfig.of(java.util.Map.of(TransportConfig.CLUSTER_SECRET,
                "status-test-cluster-secret-of-32-bytes-or-more", TransportConfig.RECONNECT_INITIAL_MS, "8000",
                TransportConfig.RECONNECT_MAX_MS, "8000"));
        int http = freePort("127.0.0.1");
        StringBuilder t = new StringBuilder("shape 3x3x3\n");
        List<StatusHttpServer> servers = new ArrayList<>();
        try (EmbeddedTorus torus = EmbeddedTorus.start(FailureView.none(shape), config, EmbeddedTorus.Wiring.IN_JVM,
                1)) {
            for (int s = 0; s < shape.size(); s++) {
                String host = "127.0.0." + (s + 1);
                Coord c = shape.coord(s);
                t.append(c.x()).append(',').append(c.y()).append(',').append(c.z()).append(' ').append(host)
                        .append(":7710\n");
                servers.add(torus.startStatusServer(new InetSocketAddress(host, http), s));
            }
            Path topology = dir.resolve("topology");
            Files.writeString(topology, t);

            CliRun healthy = CliRun.of("status", "--topology", topology.toString(), "--http-port", "" + http);
            assertEquals(0, healthy.status(), healthy.out() + healthy.err());
            assertTrue(healthy.out().contains("27 of 27 daemons up, 162 of 162 links between them up: healthy"),
                    healthy.out());
            String metrics = get("http://127.0.0.14:" + http + "/metrics");
            assertTrue(metrics.contains("camdoop_links_up{coord=\"1,1,1\"} 6\n"), metrics);
            assertTrue(metrics.contains("camdoop_link_up{coord=\"1,1,1\",port=\"-z\",peer=\"1,1,0\"} 1\n"), metrics);

            CountDownLatch down = new CountDownLatch(2);
            TransportListener onDown = new TransportListener() {
                @Override
                public void linkDown(Port port, Coord peer, String reason) {
                    down.countDown();
                }
            };
            torus.node(0).addListener(onDown);
            torus.node(1).addListener(onDown);
            torus.node(0).cutLink(Port.PLUS_X, Duration.ofSeconds(8)); // held down, as a pulled cable
            assertTrue(down.await(30, TimeUnit.SECONDS), "the cut link's ends never went down");
            CliRun cut = CliRun.of("status", "--topology", topology.toString(), "--http-port", "" + http, "--json");
            assertEquals(CamdoopCli.FAILED, cut.status(), cut.out() + cut.err());
            JsonNode root = new ObjectMapper().readTree(cut.out());
            assertEquals(27, root.get("up").asInt());
            assertEquals(160, root.get("links_up").asInt());
            assertEquals(false, root.get("servers").get(0).get("status").get("links").get(0).get("up").asBoolean());
        } finally {
            servers.forEach(StatusHttpServer::close);
        }
    }

    /** A daemon whose root shuffle waits for new attempts of a lost map output: status prints what it waits for. */
    @Test
    @Timeout(60)
    void aShufflePausedForLostMapOutputsIsNamedWithWhatItWaitsFor() throws Exception {
        int http = freePort("127.0.0.1");
        var paused = new org.camdoop.shuffle.service.ShuffleStatus("job_1700000000000_0007", 4, "0,0,0", 0, 0, 0,
                List.of("attempt_1700000000000_0007_m_000002_0"));
        var snapshot = new org.camdoop.shuffle.daemon.status.DaemonSnapshot(new Coord(0, 0, 0),
                TorusShape.parse("1x1x1"), List.of(), 0, 0, 1, 1, 0, 0, 0, 0, List.of(paused),
                new java.util.TreeMap<>(), org.camdoop.shuffle.service.DaemonCounters.Snapshot.none());
        Path topology = dir.resolve("topology-paused");
        Files.writeString(topology, "shape 1x1x1\n0,0,0 127.0.0.1:7710\n");
        try (StatusHttpServer s = StatusHttpServer.start(new InetSocketAddress("127.0.0.1", http), () -> snapshot,
                () -> "{}")) {
            CliRun run = CliRun.of("status", "--topology", topology.toString(), "--http-port", "" + http);
            assertTrue(run.out().contains("paused: job_1700000000000_0007 partition 4 (root 0,0,0) waits for new"
                    + " attempts of [attempt_1700000000000_0007_m_000002_0]\n"), run.out() + run.err());
        }
    }

    private static String get(String url) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        assertEquals("text/plain; version=0.0.4; charset=utf-8", r.headers().firstValue("Content-Type").orElse(""));
        return r.body();
    }
}
