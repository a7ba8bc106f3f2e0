package org.camdoop.shuffle.daemon.status;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A daemon's read-only HTTP endpoint ({@code camdoop.daemon.http.port}): {@code GET /} (the status page: the torus
 * drawn, its links coloured by load, the running shuffles and the jobs), {@code /torus.json} (what the page draws:
 * every daemon's status, see {@link TorusView}), {@code /metrics} (Prometheus text) and {@code /status.json} (this
 * daemon; what {@code camdoop status} reads). Nothing in it changes the daemon or takes a request body, so it needs no
 * authentication beyond the network's; every answer is a fresh snapshot.
 *
 * <p>Bounded: one thread answers, in turn (a snapshot is a task on the event loop, a few microseconds); the JDK server
 * keeps its own small accept backlog. Any other path is 404, any other method 405.
 */
public final class StatusHttpServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StatusHttpServer.class);
    private static final int BACKLOG = 16;

    private final HttpServer server;
    private final ExecutorService thread;

    private StatusHttpServer(HttpServer server, ExecutorService thread) {
        this.server = server;
        this.thread = thread;
    }

    /** The status page (a resource beside this class): HTML and a script that draws {@code /torus.json}. */
    private static final byte[] PAGE = page();

    private static byte[] page() {
        try (var in = StatusHttpServer.class.getResourceAsStream("status.html")) {
            if (in == null) {
                throw new IllegalStateException("status.html is missing beside " + StatusHttpServer.class.getName());
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * Listens on {@code address} (port 0: any free port) and answers from {@code snapshot} (this daemon) and
     * {@code torus} (every daemon, for the page).
     */
    public static StatusHttpServer start(InetSocketAddress address, Supplier<DaemonSnapshot> snapshot,
            TorusView torus) throws IOException {
        HttpServer server = HttpServer.create(address, BACKLOG);
        ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "camdoop-status-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(thread);
        server.createContext("/", exchange -> answer(exchange, snapshot, torus));
        server.start();
        LOG.info("Camdoop status page on http://{}:{}/ (also /metrics, /status.json, /torus.json)",
                address.getHostString(), server.getAddress().getPort());
        return new StatusHttpServer(server, thread);
    }

    /** The address it listens on (with the port chosen, if 0 was asked for). */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    private static void answer(HttpExchange exchange, Supplier<DaemonSnapshot> snapshot, TorusView torus)
            throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            if (!java.util.Set.of("/", "/torus.json", "/metrics", "/status.json").contains(path)) {
                send(exchange, 404, "text/plain; charset=utf-8",
                        "not found: try /, /torus.json, /metrics or /status.json\n");
                return;
            }
            if (!exchange.getRequestMethod().equals("GET") && !exchange.getRequestMethod().equals("HEAD")) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                send(exchange, 405, "text/plain; charset=utf-8", "only GET\n");
                return;
            }
            if (path.equals("/")) {
                send(exchange, 200, "text/html; charset=utf-8", PAGE);
                return;
            }
            String body;
            try {
                body = switch (path) {
                    case "/metrics" -> PrometheusText.render(snapshot.get());
                    case "/status.json" -> StatusJson.render(snapshot.get()) + "\n";
                    default -> torus.json() + "\n";
                };
            } catch (RuntimeException e) {
                // The node did not answer (stopping, or its event loop is stuck): say so, as a health check should.
                send(exchange, 503, "text/plain; charset=utf-8", "daemon not answering: " + e.getMessage() + "\n");
                return;
            }
            send(exchange, 200, path.equals("/metrics") ? PrometheusText.CONTENT_TYPE : "application/json", body);
        }
    }

    private static void send(HttpExchange exchange, int code, String type, String body) throws IOException {
        send(exchange, code, type, body.getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpExchange exchange, int code, String type, byte[] bytes) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", type);
        boolean head = exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(code, head ? -1 : bytes.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        thread.shutdownNow();
    }
}
