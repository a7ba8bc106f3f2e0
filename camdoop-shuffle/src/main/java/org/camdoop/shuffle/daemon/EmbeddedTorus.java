package org.camdoop.shuffle.daemon;

import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.mapred.JobConf;
import org.camdoop.shuffle.aggregation.JobAggregationSpec;
import org.camdoop.shuffle.service.CamdoopService;
import org.camdoop.shuffle.service.ServiceContext;
import org.camdoop.shuffle.service.pacing.StreamPacer;
import org.camdoop.shuffle.service.pacing.SwitchPacer;
import org.camdoop.shuffle.service.vertex.LocalMapOutput;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.Topology;
import org.camdoop.torus.transport.TorusNode;
import org.camdoop.torus.transport.TransportConfig;

/**
 * Many Camdoop daemons in one JVM, one per live coordinate of a torus, joined by the real transport: in-JVM channels
 * (fast, for tests) or loopback TCP (optionally rate-shaped, for benchmarks). Used by local mode, the demo, tests and
 * benchmarks. Jobs and map outputs are registered directly, standing in for the job registry. With a
 * {@link SwitchEmulation} the vertex streams are paced as if the servers hung off one switch (the direct-mode baseline).
 */
public final class EmbeddedTorus implements AutoCloseable {

    /** How the daemons are joined. */
    public enum Wiring { IN_JVM, LOOPBACK_TCP }

    private final TorusShape shape;
    private final FailureView view;
    private final EventLoopGroup group;
    private final ExecutorService vertexThreads;
    /** Wakes streams waiting for switch tokens; null without switch emulation. */
    private final ScheduledExecutorService switchTimer;
    private final List<TorusNode> nodes = new ArrayList<>();
    private final List<CamdoopService> services = new ArrayList<>();
    private final Map<String, JobAggregationSpec> jobs = new ConcurrentHashMap<>();
    private final Map<Integer, Map<String, List<LocalMapOutput>>> outputs = new ConcurrentHashMap<>();

    private EmbeddedTorus(TorusShape shape, FailureView view, TransportConfig config, Wiring wiring, int threads,
            Optional<SwitchEmulation> switchEmulation) throws IOException, InterruptedException {
        if (switchEmulation.isPresent() && config.shapingBytesPerSecond() > 0) {
            throw new IllegalArgumentException("switch emulation needs an unshaped transport (shaping is "
                    + config.shapingBytesPerSecond() + " B/s)");
        }
        this.shape = shape;
        this.view = view;
        this.switchTimer = switchEmulation.isPresent() ? Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "camdoop-switch-pacer");
            t.setDaemon(true);
            return t;
        }) : null;
        StreamPacer pacer = switchEmulation.<StreamPacer>map(sw -> new SwitchPacer(shape.size(), sw.bytesPerSecond(),
                sw.burstBytes(), System::nanoTime,
                (nanos, wake) -> switchTimer.schedule(wake, nanos, TimeUnit.NANOSECONDS))).orElse(StreamPacer.NONE);
        Topology topology = wiring == Wiring.IN_JVM
                ? Topology.inJvm(shape, "embedded-" + System.identityHashCode(this))
                : Topology.tcp(shape, loopbackPorts(shape, view));
        this.group = TorusNode.groupFor(topology, config, Math.max(1, threads));
        this.vertexThreads = Executors.newFixedThreadPool(Math.max(1, threads), r -> {
            Thread t = new Thread(r, "camdoop-vertex");
            t.setDaemon(true);
            return t;
        });
        try {
            for (int s = 0; s < shape.size(); s++) {
                if (!view.isLive(s)) {
                    nodes.add(null);
                    services.add(null);
                    continue;
                }
                TorusNode node = TorusNode.start(config, topology, shape.coord(s), group, view);
                nodes.add(node);
                final int server = s;
                services.add(new CamdoopService(new ServiceContext(node,
                        jobId -> outputs.getOrDefault(server, Map.of()).getOrDefault(jobId, List.of()),
                        jobId -> Optional.ofNullable(jobs.get(jobId)), vertexThreads, view, 4096, 16, pacer)));
            }
        } catch (InterruptedException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * Starts a daemon on every live coordinate of {@code view}'s shape.
     *
     * @param threads event-loop threads and vertex threads (each)
     */
    public static EmbeddedTorus start(FailureView view, TransportConfig config, Wiring wiring, int threads)
            throws IOException, InterruptedException {
        return new EmbeddedTorus(view.shape(), view, config, wiring, threads, Optional.empty());
    }

    /**
     * Starts a daemon on every live coordinate, its vertex streams paced as if every server had one switch link
     * (see {@link SwitchEmulation}).
     *
     * @param config   must not shape the transport
     * @param threads  event-loop threads and vertex threads (each)
     */
    public static EmbeddedTorus startOnSwitch(FailureView view, TransportConfig config, Wiring wiring, int threads,
            SwitchEmulation switchEmulation) throws IOException, InterruptedException {
        return new EmbeddedTorus(view.shape(), view, config, wiring, threads, Optional.of(switchEmulation));
    }

    private static Map<Coord, InetSocketAddress> loopbackPorts(TorusShape shape, FailureView view) throws IOException {
        Map<Coord, InetSocketAddress> ports = new HashMap<>();
        List<ServerSocket> held = new ArrayList<>();
        try {
            for (int s = 0; s < shape.size(); s++) {
                // Bound and released just before the daemons bind: a small race with other processes, fine for tests.
                ServerSocket probe = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
                held.add(probe);
                ports.put(shape.coord(s), new InetSocketAddress("127.0.0.1", probe.getLocalPort()));
            }
        } finally {
            for (ServerSocket s : held) {
                s.close();
            }
        }
        return ports;
    }

    public TorusShape shape() {
        return shape;
    }

    public FailureView view() {
        return view;
    }

    /** Makes a job known to every daemon (standing in for the job registry and spec broadcast). */
    public void registerJob(String jobId, JobConf conf) {
        jobs.put(jobId, JobAggregationSpec.fromJob(conf));
    }

    /** Registers a map output on server {@code server}. */
    public void addMapOutput(int server, String jobId, LocalMapOutput output) {
        outputs.computeIfAbsent(server, k -> new ConcurrentHashMap<>())
                .computeIfAbsent(jobId, k -> new CopyOnWriteArrayList<>()).add(output);
    }

    /** The service of a live server. */
    public CamdoopService service(int server) {
        CamdoopService s = services.get(server);
        if (s == null) {
            throw new IllegalArgumentException("server " + shape.coord(server) + " is not live");
        }
        return s;
    }

    public TorusNode node(int server) {
        return nodes.get(server);
    }

    @Override
    public void close() throws InterruptedException {
        for (TorusNode n : nodes) {
            if (n != null) {
                n.close();
            }
        }
        vertexThreads.shutdownNow();
        if (switchTimer != null) {
            switchTimer.shutdownNow();
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
        vertexThreads.awaitTermination(10, TimeUnit.SECONDS);
    }
}
