package org.camdoop.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import org.camdoop.shuffle.daemon.DaemonConfig;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.Topology;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code camdoop status}: asks every daemon of a topology file for its {@code /status.json} (all at once, each with a
 * deadline) and prints one line per daemon. Exit status 0 when every daemon answered and every link between two
 * daemons of the file is up, 1 otherwise (for scripts and alerts); links to coordinates the file leaves vacant do not
 * count.
 */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = {"Ask every daemon of a topology file how it is; exit 1 if any daemon or link is down.",
            "JSON (--json): {\"daemons\": N, \"up\": U, \"links\": L, \"links_up\": K, \"healthy\": true|false,"
                + " \"servers\": [{\"coord\": \"x,y,z\", \"address\": \"host:port\", \"up\": true|false,"
                + " \"error\": \"...\" (when down), \"status\": {the daemon's /status.json} (when up)}, ...]}"})
public final class StatusCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--topology", required = true, paramLabel = "FILE", description = "The cluster's topology file.")
    Path topology;

    @Option(names = "--http-port", paramLabel = "PORT",
            description = "The daemons' " + DaemonConfig.HTTP_PORT + " (default: ${DEFAULT-VALUE}).")
    int httpPort = DaemonConfig.DEFAULT_HTTP_PORT;

    @Option(names = "--timeout-ms", defaultValue = "3000", paramLabel = "MS",
            description = "How long to wait for each daemon (default: ${DEFAULT-VALUE}).")
    long timeoutMs;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    boolean json;

    private record Answer(Coord coord, String address, JsonNode status, String error) {
    }

    @Override
    public Integer call() throws Exception {
        if (httpPort < 1 || httpPort > 65535) {
            throw new IllegalArgumentException("--http-port must be a port, got " + httpPort);
        }
        Topology topo = Topology.load(topology);
        TorusShape shape = topo.shape();
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(timeoutMs)).build();
        ObjectMapper mapper = new ObjectMapper();
        List<Coord> coords = new ArrayList<>();
        List<String> addresses = new ArrayList<>();
        List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        Set<Coord> present = new HashSet<>();
        for (int s = 0; s < shape.size(); s++) {
            SocketAddress a = topo.address(s);
            if (!(a instanceof InetSocketAddress inet)) {
                continue;
            }
            String address = hostForUri(inet.getHostString()) + ":" + httpPort;
            coords.add(shape.coord(s));
            present.add(shape.coord(s));
            addresses.add(address);
            calls.add(client.sendAsync(HttpRequest.newBuilder(URI.create("http://" + address + "/status.json"))
                    .timeout(Duration.ofMillis(timeoutMs)).GET().build(), HttpResponse.BodyHandlers.ofString()));
        }
        List<Answer> answers = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            answers.add(answer(mapper, coords.get(i), addresses.get(i), calls.get(i)));
        }
        int up = 0;
        int links = 0;
        int linksUp = 0;
        for (Answer a : answers) {
            if (a.status() == null) {
                continue;
            }
            up++;
            for (JsonNode l : a.status().get("links")) {
                if (present.contains(Coord.parse(l.get("peer").asText()))) {
                    links++;
                    linksUp += l.get("up").asBoolean() ? 1 : 0;
                }
            }
        }
        boolean healthy = up == answers.size() && linksUp == links;
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            ObjectNode root = mapper.createObjectNode();
            root.put("daemons", answers.size()).put("up", up).put("links", links).put("links_up", linksUp)
                    .put("healthy", healthy);
            ArrayNode servers = root.putArray("servers");
            for (Answer a : answers) {
                ObjectNode s = servers.addObject().put("coord", format(a.coord())).put("address", a.address())
                        .put("up", a.status() != null);
                if (a.status() == null) {
                    s.put("error", a.error());
                } else {
                    s.set("status", a.status());
                }
            }
            out.println(mapper.writeValueAsString(root));
        } else {
            out.printf("%-8s %-24s %-5s %-9s %-9s %s%n", "server", "status address", "up", "links up", "shuffles",
                    "buffers reserved/peak/total");
            for (Answer a : answers) {
                if (a.status() == null) {
                    out.printf("%-8s %-24s %-5s %s%n", format(a.coord()), a.address(), "NO", a.error());
                    continue;
                }
                JsonNode s = a.status();
                JsonNode b = s.get("buffers");
                out.printf("%-8s %-24s %-5s %-9s %-9d %d/%d/%d%n", format(a.coord()), a.address(), "yes",
                        s.get("links_up").asInt() + "/" + s.get("links").size(), s.get("shuffles_running").asInt(),
                        b.get("reserved").asInt(), b.get("peak").asInt(), b.get("total").asInt());
            }
            for (Answer a : answers) {
                if (a.status() != null && a.status().has("shuffles")) {
                    for (JsonNode sh : a.status().get("shuffles")) {
                        if (sh.has("waiting_for") && !sh.get("waiting_for").isEmpty()) {
                            List<String> lost = new java.util.ArrayList<>();
                            sh.get("waiting_for").forEach(n -> lost.add(n.asText()));
                            out.printf("paused: %s partition %d (root %s) waits for new attempts of %s%n",
                                    sh.get("job").asText(), sh.get("partition").asInt(), sh.get("root").asText(), lost);
                        }
                    }
                }
            }
            out.printf("%d of %d daemons up, %d of %d links between them up: %s%n", up, answers.size(), linksUp, links,
                    healthy ? "healthy" : "NOT HEALTHY");
        }
        out.flush();
        return healthy ? 0 : CamdoopCli.FAILED;
    }

    private Answer answer(ObjectMapper mapper, Coord coord, String address,
            CompletableFuture<HttpResponse<String>> call) {
        try {
            HttpResponse<String> r = call.join();
            if (r.statusCode() != 200) {
                return new Answer(coord, address, null, "HTTP " + r.statusCode() + ": " + r.body().strip());
            }
            return new Answer(coord, address, mapper.readTree(r.body()), null);
        } catch (RuntimeException | java.io.IOException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            return new Answer(coord, address, null, cause.getClass().getSimpleName()
                    + (cause.getMessage() == null ? "" : ": " + cause.getMessage()));
        }
    }

    private static String hostForUri(String host) {
        return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    }

    private static String format(Coord c) {
        return c.x() + "," + c.y() + "," + c.z();
    }
}
