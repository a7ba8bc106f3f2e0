package org.camdoop.shuffle.daemon.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.Topology;
import org.junit.jupiter.api.Test;

/**
 * A daemon's torus view asks its peers on their own addresses (127.0.0.x, one per "host", one status port), keeps
 * what they say only when it is their own status, and fans out at most once a second whatever the request rate.
 */
class PeerStatusViewTest {

    private static DaemonSnapshot snapshot(Coord c) {
        return new DaemonSnapshot(c, TorusShape.parse("4x1x1"), List.of(), 0, 0, 1, 1, 0, 0, 0, 0, List.of(),
                new TreeMap<>(), org.camdoop.shuffle.service.DaemonCounters.Snapshot.none());
    }

    @Test
    void peersAnswerTheirOwnStatusLiarsAndTheSilentAreUnreachableAndFanOutIsSpaced() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.2"))) {
            port = probe.getLocalPort();
        }
        Topology topology = Topology.parse("shape 4x1x1\n0,0,0 127.0.0.1:1\n1,0,0 127.0.0.2:1\n2,0,0 127.0.0.3:1\n"
                + "3,0,0 127.0.0.4:1\n");
        AtomicInteger asked = new AtomicInteger();
        List<StatusHttpServer> peers = new ArrayList<>();
        try {
            // 1,0,0 answers as itself; 2,0,0 claims to be 3,0,0; nobody listens for 3,0,0.
            peers.add(StatusHttpServer.start(new InetSocketAddress("127.0.0.2", port), () -> {
                asked.incrementAndGet();
                return snapshot(new Coord(1, 0, 0));
            }, () -> "{}"));
            peers.add(StatusHttpServer.start(new InetSocketAddress("127.0.0.3", port),
                    () -> snapshot(new Coord(3, 0, 0)), () -> "{}"));
            AtomicLong clock = new AtomicLong();
            PeerStatusView view = new PeerStatusView(topology, new Coord(0, 0, 0), port,
                    () -> snapshot(new Coord(0, 0, 0)), clock::get);

            String first = view.json();
            JsonNode v = new ObjectMapper().readTree(first);
            assertEquals("4x1x1", v.get("shape").asText());
            assertEquals("0,0,0", v.get("self").asText());
            assertEquals(List.of("0,0,0", "1,0,0"), v.get("daemons").findValuesAsText("coord"));
            assertEquals("[\"2,0,0\",\"3,0,0\"]", v.get("unreachable").toString());
            assertEquals("its answer is the status of another coordinate",
                    v.get("unreachable_reasons").get("2,0,0").asText());
            assertEquals("no answer: cannot connect", v.get("unreachable_reasons").get("3,0,0").asText());
            assertEquals(1, asked.get());

            clock.addAndGet(PeerStatusView.MIN_INTERVAL_NANOS - 1);
            assertSame(first, view.json(), "within a second: the same view, no new fan-out");
            assertEquals(1, asked.get());
            clock.addAndGet(1);
            assertTrue(view.json().contains("\"1,0,0\""));
            assertEquals(2, asked.get());
        } finally {
            peers.forEach(StatusHttpServer::close);
        }
    }
}
