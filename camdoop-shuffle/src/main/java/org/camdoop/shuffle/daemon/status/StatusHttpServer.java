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
 * A standalone daemon's read-only HTTP endpoint ({@code camdoop.daemon.http.port}): {@code GET /metrics} (Prometheus
 * text) and {@code GET /status.json} (what {@code camdoop status} reads). Nothing in it changes the daemon, takes a
 * request body or names a job, so it needs no authentication beyond the network's; every answer is a fresh snapshot.
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

    /** Listens on {@code address} (port 0: any free port) and answers from {@code snapshot}. */
    public static StatusHttpServer start(InetSocketAddress address, Supplier<DaemonSnapshot> snapshot)
            throws IOException {
        HttpServer server = HttpServer.create(address, BACKLOG);
        ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "camdoop-status-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(thread);
        server.createContext("/", exchange -> answer(exchange, snapshot));
        server.start();
        LOG.info("Camdoop status and metrics on http://{}:{}/ (/metrics, /status.json)",
                address.getHostString(), server.getAddress().getPort());
        return new StatusHttpServer(server, thread);
    }

    /** The address it listens on (with the port chosen, if 0 was asked for). */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    private static void answer(HttpExchange exchange, Supplier<DaemonSnapshot> snapshot) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            if (!path.equals("/metrics") && !path.equals("/status.json")) {
                send(exchange, 404, "text/plain; charset=utf-8", "not found: try /metrics or /status.json\n");
                return;
            }
            if (!exchange.getRequestMethod().equals("GET") && !exchange.getRequestMethod().equals("HEAD")) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                send(exchange, 405, "text/plain; charset=utf-8", "only GET\n");
                return;
            }
            DaemonSnapshot s;
            try {
                s = snapshot.get();
            } catch (RuntimeException e) {
                // The node did not answer (stopping, or its event loop is stuck): say so, as a health check should.
                send(exchange, 503, "text/plain; charset=utf-8", "daemon not answering: " + e.getMessage() + "\n");
                return;
            }
            if (path.equals("/metrics")) {
                send(exchange, 200, PrometheusText.CONTENT_TYPE, PrometheusText.render(s));
            } else {
                send(exchange, 200, "application/json", StatusJson.render(s) + "\n");
            }
        }
    }

    private static void send(HttpExchange exchange, int code, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
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
