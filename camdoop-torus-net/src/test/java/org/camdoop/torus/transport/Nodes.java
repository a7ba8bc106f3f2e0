package org.camdoop.torus.transport;

import static org.junit.jupiter.api.Assertions.fail;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.Port;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.stream.OutboundStream;

/** Helpers shared by the node tests. */
final class Nodes {

    private Nodes() {
    }

    /** A cluster secret long enough for the transport (at least 32 bytes), derived from a short name. */
    static String secret(String name) {
        return name + "-cluster-secret-padded-to-32-bytes-at-least";
    }

    static TransportConfig config(String secret) {
        return TransportConfig.of(settings(secret));
    }

    /** {@link #config(String)} with one key set otherwise. */
    static TransportConfig config(String secret, String key, String value) {
        Map<String, String> m = new HashMap<>(settings(secret));
        m.put(key, value);
        return TransportConfig.of(m);
    }

    private static Map<String, String> settings(String secret) {
        return Map.of(
                TransportConfig.CLUSTER_SECRET, secret(secret),
                TransportConfig.SEGMENT_BYTES, "1024",
                TransportConfig.MAX_FRAME_BYTES, "2048",
                TransportConfig.BUFFER_BUDGET_BYTES, String.valueOf(64 * 1024),
                TransportConfig.HEARTBEAT_INTERVAL_MS, "200",
                TransportConfig.HEARTBEAT_TIMEOUT_MS, "3000",
                TransportConfig.RECONNECT_INITIAL_MS, "20",
                TransportConfig.RECONNECT_MAX_MS, "200");
    }

    /** A loopback TCP topology on free ephemeral ports. */
    static Topology loopback(TorusShape shape) throws IOException {
        Map<Coord, InetSocketAddress> m = new HashMap<>();
        for (int i = 0; i < shape.size(); i++) {
            try (ServerSocket s = new ServerSocket(0)) {
                m.put(shape.coord(i), InetSocketAddress.createUnresolved("127.0.0.1", s.getLocalPort()));
            }
        }
        return Topology.tcp(shape, m);
    }

    static ByteBuf intFrame(int v, int size) {
        ByteBuf b = Unpooled.buffer(size);
        b.writeInt(v);
        b.writeZero(size - 4);
        return b;
    }

    /** Writes {@code n} frames carrying 0..n-1 then END("done"); blocks on credit. */
    static void writeAll(OutboundStream s, int from, int n, int size) throws InterruptedException {
        for (int i = from; i < n; i++) {
            s.write(intFrame(i, size));
        }
    }

    /**
     * Completes when {@code node}'s link through {@code port} is up: on its link-up event, or at once if it already is
     * (the listener is registered after start, so a link already up announced itself before it was there).
     */
    static CompletableFuture<Void> linkUp(TorusNode node, Port port) {
        CompletableFuture<Void> up = new CompletableFuture<>();
        node.addListener(new TransportListener() {
            @Override
            public void linkUp(Port p, Coord peer) {
                if (p == port) {
                    up.complete(null);
                }
            }
        });
        if (node.isLinkUp(port)) {
            up.complete(null);
        }
        return up;
    }

    /** Waits for {@code event}; fails the test naming {@code what} if it has not happened within {@code millis}. */
    static <T> T await(CompletableFuture<T> event, long millis, String what) throws Exception {
        try {
            return event.get(millis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return fail("timed out after " + millis + " ms waiting for " + what);
        }
    }

    /** Waits for the next item of {@code events}; fails the test naming {@code what} if none came within millis. */
    static <T> T next(BlockingQueue<T> events, long millis, String what) throws InterruptedException {
        T e = events.poll(millis, TimeUnit.MILLISECONDS);
        if (e == null) {
            fail("timed out after " + millis + " ms waiting for " + what);
        }
        return e;
    }
}
