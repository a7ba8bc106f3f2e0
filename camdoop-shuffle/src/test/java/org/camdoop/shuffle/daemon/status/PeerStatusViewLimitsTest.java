package org.camdoop.shuffle.daemon.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.Topology;
import org.junit.jupiter.api.Test;

/**
 * Whoever answers at a peer's address cannot make the unauthenticated {@code /torus.json} fill the daemon's heap or
 * hold its status thread: an endless body is read up to the cap only, and a body trickled byte by byte, or headers
 * never sent, are given up at the fan-out's deadline; each such peer is listed unreachable with the reason.
 */
class PeerStatusViewLimitsTest {
    private static final Topology TOPOLOGY = Topology.parse("shape 4x1x1\n0,0,0 127.0.0.1:1\n1,0,0 127.0.0.2:1\n"
            + "2,0,0 127.0.0.3:1\n3,0,0 127.0.0.4:1\n");
    private static final long DEADLINE_MS = PeerStatusView.DEADLINE.toMillis();

    private static DaemonSnapshot snapshot(Coord c) {
        return new DaemonSnapshot(c, TorusShape.parse("4x1x1"), List.of(), 0, 0, 1, 1, 0, 0, 0, 0, List.of(),
                new TreeMap<>(), org.camdoop.shuffle.service.DaemonCounters.Snapshot.none());
    }

    private static int freePort() throws Exception {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.2"))) {
            return probe.getLocalPort();
        }
    }

    private static PeerStatusView view(int port) {
        return new PeerStatusView(TOPOLOGY, new Coord(0, 0, 0), port, () -> snapshot(new Coord(0, 0, 0)),
                System::nanoTime);
    }

    /** The start of a status that names {@code coord}, as a peer would begin its answer. */
    private static void begin(OutputStream out, String coord) throws java.io.IOException {
        out.write(("{\"coord\": \"" + coord + "\", \"pad\": \"").getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void anEndlessAnswerIsReadOnlyUpToTheCapAndItsConnectionClosed() throws Exception {
        int port = freePort();
        byte[] chunk = new byte[64 * 1024];
        Arrays.fill(chunk, (byte) 'a');
        try (RawHttpPeer endless = new RawHttpPeer(new InetSocketAddress("127.0.0.2", port), (out, written) -> {
            begin(out, "1,0,0");
            while (true) {
                out.write(chunk);
                written.addAndGet(chunk.length);
            }
        })) {
            long start = System.nanoTime();
            JsonNode v = new ObjectMapper().readTree(view(port).json());
            long tookMs = (System.nanoTime() - start) / 1_000_000;

            assertTrue(tookMs < DEADLINE_MS, "the cap, not the deadline, ended it: " + tookMs + " ms");
            assertEquals(List.of("0,0,0"), v.get("daemons").findValuesAsText("coord"));
            assertEquals("[\"1,0,0\",\"2,0,0\",\"3,0,0\"]", v.get("unreachable").toString());
            assertEquals("{\"1,0,0\":\"answer longer than 262144 bytes\",\"2,0,0\":\"no answer: cannot connect\","
                    + "\"3,0,0\":\"no answer: cannot connect\"}", v.get("unreachable_reasons").toString());
            assertTrue(endless.hungUpWithin(5_000), "the view closed the connection");
            // What the peer wrote: the cap, plus what the sockets' buffers on both sides held, not more.
            assertTrue(endless.bodyBytesWritten() < 32L << 20, endless.bodyBytesWritten() + " bytes");
        }
    }

    @Test
    void aTrickledAnswerAndMissingHeadersAreGivenUpAtTheDeadline() throws Exception {
        int port = freePort();
        try (RawHttpPeer trickle = new RawHttpPeer(new InetSocketAddress("127.0.0.2", port), (out, written) -> {
            begin(out, "1,0,0");
            while (true) {
                out.write(' ');
                out.flush();
                written.incrementAndGet();
                Thread.sleep(50);
            }
        });
                // Accepted by the kernel, never answered: not even headers.
                ServerSocket silent = new ServerSocket(port, 50, InetAddress.getByName("127.0.0.3"))) {
            long start = System.nanoTime();
            JsonNode v = new ObjectMapper().readTree(view(port).json());
            long tookMs = (System.nanoTime() - start) / 1_000_000;

            assertTrue(tookMs >= DEADLINE_MS - 100 && tookMs < DEADLINE_MS + 1_500, tookMs + " ms");
            assertEquals(List.of("0,0,0"), v.get("daemons").findValuesAsText("coord"));
            JsonNode reasons = v.get("unreachable_reasons");
            assertEquals("no complete answer within 2000 ms", reasons.get("1,0,0").asText());
            assertEquals("no complete answer within 2000 ms", reasons.get("2,0,0").asText());
            assertTrue(trickle.hungUpWithin(2_000), "the view closed the trickling connection");
        }
    }
}
