package org.camdoop.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetAddress;
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
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.Port;
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

    private static String get(String url) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        assertEquals("text/plain; version=0.0.4; charset=utf-8", r.headers().firstValue("Content-Type").orElse(""));
        return r.body();
    }
}
