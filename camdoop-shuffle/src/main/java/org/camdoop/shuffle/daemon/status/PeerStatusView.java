package org.camdoop.shuffle.daemon.status;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.Topology;

/**
 * The torus view of a daemon among peers on other hosts: its own snapshot, and every other daemon of the topology
 * asked for its {@code /status.json} on the same status port, all at once, with one deadline for the whole fan-out.
 *
 * <p>Bounded: the endpoint is unauthenticated, so a view is computed at most once per {@link #MIN_INTERVAL_NANOS}
 * whatever the request rate (later requests get the cached one), takes at most about {@link #DEADLINE} however the
 * peers answer, and reads at most {@link #MAX_ANSWER_BYTES} of each peer's answer ({@link PeerFetch}). A peer that
 * answers late, too much, not a JSON object, or as another coordinate counts as unreachable, with the reason in
 * {@code unreachable_reasons}. Thread-safety: {@link #json()} is synchronized (one HTTP thread calls it anyway).
 */
public final class PeerStatusView implements TorusView {
    static final long MIN_INTERVAL_NANOS = 1_000_000_000L;
    static final int MAX_ANSWER_BYTES = 256 * 1024;
    static final Duration DEADLINE = Duration.ofSeconds(2);

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
     * @param nanoTime the clock that spaces fan-outs ({@link System#nanoTime} but in tests; the deadline of a
     *     fan-out is always on {@link System#nanoTime})
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
            // HTTP/1.1: our peers serve nothing else, and an upgrade would only add ways to hold a connection.
            client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(DEADLINE).build();
        }
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        TorusShape shape = topology.shape();
        List<PeerFetch> fetches = new ArrayList<>();
        List<Coord> peers = new ArrayList<>();
        for (int s = 0; s < shape.size(); s++) {
            Coord c = shape.coord(s);
            SocketAddress a = topology.address(s);
            if (c.equals(self) || !(a instanceof InetSocketAddress inet)) {
                continue;
            }
            String host = inet.getHostString().contains(":") ? "[" + inet.getHostString() + "]" : inet.getHostString();
            peers.add(c);
            fetches.add(new PeerFetch(client, URI.create("http://" + host + ":" + httpPort + "/status.json"), c,
                    MAX_ANSWER_BYTES, DEADLINE));
        }
        List<String> daemons = new ArrayList<>();
        Map<Coord, String> unreachable = new LinkedHashMap<>();
        daemons.add(StatusJson.render(own.get()));
        for (int i = 0; i < peers.size(); i++) {
            PeerFetch.Answer a = fetches.get(i).await(deadline);
            if (a.json() != null) {
                daemons.add(a.json());
            } else {
                unreachable.put(peers.get(i), a.whyNot());
            }
        }
        cached = TorusJson.render(shape, self, System.currentTimeMillis(), daemons, unreachable);
        cachedAt = now;
        return cached;
    }
}
