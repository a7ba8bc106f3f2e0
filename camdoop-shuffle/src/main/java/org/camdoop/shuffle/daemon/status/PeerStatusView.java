package org.camdoop.shuffle.daemon.status;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.Topology;

/**
 * The torus view of a daemon among peers on other hosts: its own snapshot, and every other daemon of the topology
 * asked for its {@code /status.json} on the same status port, all at once, each with a deadline.
 *
 * <p>Bounded: the endpoint is unauthenticated, so a view is computed at most once per {@link #MIN_INTERVAL_NANOS}
 * whatever the request rate (later requests get the cached one), and a peer's answer longer than
 * {@link #MAX_ANSWER_CHARS}, not a JSON object, or naming another coordinate counts as unreachable. Thread-safety:
 * {@link #json()} is synchronized (one HTTP thread calls it anyway).
 */
public final class PeerStatusView implements TorusView {
    static final long MIN_INTERVAL_NANOS = 1_000_000_000L;
    static final int MAX_ANSWER_CHARS = 256 * 1024;
    private static final Duration DEADLINE = Duration.ofSeconds(2);
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final Topology topology;
    private final Coord self;
    private final int httpPort;
    private final Supplier<DaemonSnapshot> own;
    private final LongSupplier nanoTime;
    /** Made for the first view: an HTTP client runs a selector thread, and most daemons' pages are never opened. */
    private HttpClient client;
    private String cached;
    private long cachedAt;

    /**
     * @param nanoTime the clock that spaces fan-outs ({@link System#nanoTime} but in tests)
     */
    public PeerStatusView(Topology topology, Coord self, int httpPort, Supplier<DaemonSnapshot> own,
            LongSupplier nanoTime) {
        this.topology = topology;
        this.self = self;
        this.httpPort = httpPort;
        this.own = own;
        this.nanoTime = nanoTime;
    }

    @Override
    public synchronized String json() {
        long now = nanoTime.getAsLong();
        if (cached != null && now - cachedAt < MIN_INTERVAL_NANOS) {
            return cached;
        }
        if (client == null) {
            client = HttpClient.newBuilder().connectTimeout(DEADLINE).build();
        }
        TorusShape shape = topology.shape();
        List<Coord> peers = new ArrayList<>();
        List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
        for (int s = 0; s < shape.size(); s++) {
            Coord c = shape.coord(s);
            SocketAddress a = topology.address(s);
            if (c.equals(self) || !(a instanceof InetSocketAddress inet)) {
                continue;
            }
            String host = inet.getHostString().contains(":") ? "[" + inet.getHostString() + "]" : inet.getHostString();
            peers.add(c);
            answers.add(client.sendAsync(HttpRequest.newBuilder(URI.create("http://" + host + ":" + httpPort
                    + "/status.json")).timeout(DEADLINE).GET().build(), HttpResponse.BodyHandlers.ofString()));
        }
        List<String> daemons = new ArrayList<>();
        List<Coord> unreachable = new ArrayList<>();
        daemons.add(StatusJson.render(own.get()));
        for (int i = 0; i < peers.size(); i++) {
            try {
                HttpResponse<String> r = answers.get(i).join();
                String body = r.body();
                if (r.statusCode() == 200 && body.length() <= MAX_ANSWER_CHARS) {
                    // Parsed and written anew: whatever answers at a peer's address cannot inject into this page.
                    JsonNode n = MAPPER.readTree(body);
                    if (n.isObject() && DaemonSnapshot.format(peers.get(i)).equals(n.path("coord").asText())) {
                        daemons.add(MAPPER.writeValueAsString(n));
                        continue;
                    }
                }
            } catch (RuntimeException | java.io.IOException e) {
                // unreachable: listed below
            }
            unreachable.add(peers.get(i));
        }
        cached = TorusJson.render(shape, self, System.currentTimeMillis(), daemons, unreachable);
        cachedAt = now;
        return cached;
    }
}
