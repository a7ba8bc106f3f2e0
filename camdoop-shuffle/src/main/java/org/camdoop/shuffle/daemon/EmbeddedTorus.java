package org.camdoop.shuffle.daemon;

import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
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
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
import org.camdoop.shuffle.aggregation.JobAggregationSpec;
import org.camdoop.shuffle.jobs.JarCache;
import org.camdoop.shuffle.jobs.JobRegistry;
import org.camdoop.shuffle.jobs.MapOutputLocator;
import org.camdoop.shuffle.jobs.JobsConfig;
import org.camdoop.shuffle.jobs.RegisterOutcome;
import org.camdoop.shuffle.protocol.JobSpec;
import org.camdoop.shuffle.service.AggregationSpecs;
import org.camdoop.shuffle.service.CamdoopService;
import org.camdoop.shuffle.service.VertexExecutor;
import org.camdoop.shuffle.service.MapOutputCatalog;
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
 * benchmarks. Map outputs are registered directly. A job is made known either to every daemon at once
 * ({@link #registerJob}, standing in for the job registry and spec broadcast) or to one daemon only
 * ({@link #registerJobOn}, in that daemon's own {@link JobRegistry} and {@link JarCache}), from which the spec
 * broadcast carries it to the others when that daemon starts a shuffle.
 */
public final class EmbeddedTorus implements AutoCloseable {

    /** How the daemons are joined. */
    public enum Wiring { IN_JVM, LOOPBACK_TCP }

    private final TorusShape shape;
    private final FailureView view;
    private final EventLoopGroup group;
    private final ExecutorService vertexThreads;
    private final List<TorusNode> nodes = new ArrayList<>();
    private final List<CamdoopService> services = new ArrayList<>();
    private final Map<String, JobAggregationSpec> jobs = new ConcurrentHashMap<>();
    private final Map<Integer, Map<String, List<LocalMapOutput>>> outputs = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer;
    private final java.nio.file.Path jarCacheRoot;
    /** Per server: its job registry and jar cache (null for servers that are not live). */
    private final List<JobRegistry> registries = new ArrayList<>();
    private final List<JarCache> jarCaches = new ArrayList<>();
    /** Servers whose daemon crashed and has not been restarted. */
    private final java.util.Set<Integer> crashed = ConcurrentHashMap.newKeySet();
    /** What every daemon is started with, kept for {@link #restart}. */
    private final TransportConfig config;
    private final Topology topology;
    private final StreamPacer pacer;
    private final DaemonConfig daemonConfig;
    private final JobsConfig jobsConfig;

    private EmbeddedTorus(TorusShape shape, FailureView view, TransportConfig config, Wiring wiring, int threads,
            long specWaitMs, Optional<SwitchEmulation> switchEmulation) throws IOException, InterruptedException {
        if (switchEmulation.isPresent() && config.shapingBytesPerSecond() > 0) {
            throw new IllegalArgumentException("switch emulation needs an unshaped transport (shaping is "
                    + config.shapingBytesPerSecond() + " B/s)");
        }
        this.shape = shape;
        this.view = view;
        this.config = config;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "camdoop-embedded-timer");
            t.setDaemon(true);
            return t;
        });
        this.jarCacheRoot = Files.createTempDirectory("camdoop-embedded-jars");
        // The timer also wakes streams waiting for switch tokens: its tasks only post to vertex mailboxes.
        this.pacer = switchEmulation.<StreamPacer>map(sw -> new SwitchPacer(shape.size(), sw.bytesPerSecond(),
                sw.burstBytes(), System::nanoTime,
                (nanos, wake) -> timer.schedule(wake, nanos, TimeUnit.NANOSECONDS))).orElse(StreamPacer.NONE);
        this.topology = wiring == Wiring.IN_JVM
                ? Topology.inJvm(shape, "embedded-" + System.identityHashCode(this))
                : Topology.tcp(shape, loopbackPorts(shape, view));
        this.group = TorusNode.groupFor(topology, config, Math.max(1, threads));
        this.vertexThreads = new VertexExecutor(Math.max(1, threads), r -> {
            Thread t = new Thread(r, "camdoop-vertex");
            t.setDaemon(true);
            return t;
        });
        // Every embedded daemon runs with the daemon's defaults, but for how long a START waits for its job's spec.
        Configuration defaults = new Configuration(false);
        defaults.setLong(DaemonConfig.SPEC_WAIT_MS, specWaitMs);
        this.daemonConfig = DaemonConfig.from(defaults);
        this.jobsConfig = JobsConfig.from(new Configuration(false));
        try {
            for (int s = 0; s < shape.size(); s++) {
                if (!view.isLive(s)) {
                    nodes.add(null);
                    services.add(null);
                    registries.add(null);
                    jarCaches.add(null);
                    continue;
                }
                nodes.add(null);
                services.add(null);
                registries.add(null);
                jarCaches.add(null);
                startDaemon(s);
            }
            awaitLinks(view, java.time.Duration.ofSeconds(30));
        } catch (InterruptedException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /** Starts the daemon of server {@code s} (transport, service, jar cache, job registry) in its slot of the lists. */
    private void startDaemon(int s) throws IOException, InterruptedException {
        JarCache cache = JarCache.open(jarCacheRoot.resolve(Integer.toString(s)),
                JobsConfig.JAR_CACHE_MAX_BYTES_DEFAULT);
        jarCaches.set(s, cache);
        TorusNode node = TorusNode.start(config, topology, shape.coord(s), group, view);
        nodes.set(s, node);
        DaemonAssembly.Parts parts = DaemonAssembly.assemble(daemonConfig, jobsConfig, cache,
                MapOutputLocator.nowhere(), node, view, vertexThreads, timer, pacer, new DaemonAssembly.Sources() {
                    @Override
                    public MapOutputCatalog catalog(JobRegistry registry) {
                        return jobId -> outputs.getOrDefault(s, Map.of()).getOrDefault(jobId, List.of());
                    }

                    @Override
                    public AggregationSpecs specs(JobRegistry registry) {
                        AggregationSpecs own = DaemonAssembly.REGISTRY.specs(registry);
                        return jobId -> Optional.ofNullable(jobs.get(jobId)).or(() -> own.forJob(jobId));
                    }
                });
        registries.set(s, parts.registry());
        services.set(s, parts.service());
    }

    /**
     * Waits until every link between live servers has completed its handshake, so the torus is ready when start
     * returns (service messages are best effort: one sent on a link still handshaking would be dropped).
     *
     * @throws IllegalStateException naming a server whose links are still down after {@code timeout}
     */
    private void awaitLinks(FailureView view, java.time.Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (int s = 0; s < shape.size(); s++) {
            if (view.isLive(s) && !nodes.get(s).awaitLinksUp(view,
                    java.time.Duration.ofNanos(Math.max(0, deadline - System.nanoTime())))) {
                throw new IllegalStateException("the links of " + shape.coord(s) + " did not all come up within "
                        + timeout);
            }
        }
    }

    /**
     * Starts a daemon on every live coordinate of {@code view}'s shape.
     *
     * @param threads event-loop threads and vertex threads (each)
     */
    public static EmbeddedTorus start(FailureView view, TransportConfig config, Wiring wiring, int threads)
            throws IOException, InterruptedException {
        return start(view, config, wiring, threads, DaemonConfig.DEFAULT_SPEC_WAIT_MS);
    }

    /**
     * As {@link #start(FailureView, TransportConfig, Wiring, int)}, with {@code specWaitMs} as every daemon's
     * {@link DaemonConfig#SPEC_WAIT_MS}.
     */
    public static EmbeddedTorus start(FailureView view, TransportConfig config, Wiring wiring, int threads,
            long specWaitMs) throws IOException, InterruptedException {
        return new EmbeddedTorus(view.shape(), view, config, wiring, threads, specWaitMs, Optional.empty());
    }

    /**
     * Starts a daemon on every live coordinate, its vertex streams paced as if every server had one switch link
     * (see {@link SwitchEmulation}): the direct-mode baseline of the benchmarks.
     *
     * @param config  must not shape the transport
     * @param threads event-loop threads and vertex threads (each)
     */
    public static EmbeddedTorus startOnSwitch(FailureView view, TransportConfig config, Wiring wiring, int threads,
            SwitchEmulation switchEmulation) throws IOException, InterruptedException {
        return new EmbeddedTorus(view.shape(), view, config, wiring, threads, DaemonConfig.DEFAULT_SPEC_WAIT_MS,
                Optional.of(switchEmulation));
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

    /**
     * Makes a job known to daemon {@code server} only, as its local tasks would: {@code jars} (the job's user class
     * path) go into that daemon's jar cache and the spec of {@code conf} (which must set {@code mapreduce.job.id})
     * into its registry. The other daemons learn the job from the spec broadcast.
     *
     * @throws IllegalStateException if the registry does not accept the job, with its reason
     */
    public void registerJobOn(int server, JobConf conf, List<java.nio.file.Path> jars) throws IOException {
        JarCache cache = jarCaches.get(server);
        for (java.nio.file.Path jar : jars) {
            cache.putFile(jar);
        }
        RegisterOutcome outcome = registry(server).registerFromPeer(JobSpec.fromJobConf(conf, jars));
        if (outcome.job().isEmpty()) {
            throw new IllegalStateException(outcome.message());
        }
    }

    /** The jar cache of a live server (tests that fill it). */
    public JarCache jarCache(int server) {
        registry(server); // live, or the same error
        return jarCaches.get(server);
    }

    /** The job registry of a live server. */
    public JobRegistry registry(int server) {
        JobRegistry r = registries.get(server);
        if (r == null) {
            throw new IllegalArgumentException("server " + shape.coord(server) + " is not live");
        }
        return r;
    }

    /** Registers a map output on server {@code server}. */
    public void addMapOutput(int server, String jobId, LocalMapOutput output) {
        outputs.computeIfAbsent(server, k -> new ConcurrentHashMap<>())
                .computeIfAbsent(jobId, k -> new CopyOnWriteArrayList<>()).add(output);
    }

    /** The service of a live server. */
    /** Server {@code server}'s figures now, as its status endpoint publishes them. */
    public org.camdoop.shuffle.daemon.status.DaemonSnapshot snapshot(int server) {
        Map<String, Integer> jobs = new java.util.TreeMap<>();
        outputs.getOrDefault(server, Map.of()).forEach((job, list) -> jobs.put(job, list.size()));
        return org.camdoop.shuffle.daemon.status.DaemonSnapshot.of(node(server), service(server), jobs);
    }

    /**
     * Serves the status page of this torus as daemon {@code server}'s endpoint would (all daemons are in this JVM, so
     * the page's view is read directly); the caller closes it before the torus.
     */
    public org.camdoop.shuffle.daemon.status.StatusHttpServer startStatusServer(InetSocketAddress address,
            int server) throws IOException {
        org.camdoop.shuffle.daemon.status.TorusView torus = () -> {
            List<String> daemons = new ArrayList<>();
            List<Coord> unreachable = new ArrayList<>();
            for (int s = 0; s < shape.size(); s++) {
                if (!view.isLive(s)) {
                    continue;
                }
                try {
                    daemons.add(org.camdoop.shuffle.daemon.status.StatusJson.render(snapshot(s)));
                } catch (RuntimeException stopped) {
                    unreachable.add(shape.coord(s));
                }
            }
            return org.camdoop.shuffle.daemon.status.TorusJson.render(shape, shape.coord(server),
                    System.currentTimeMillis(), daemons, unreachable);
        };
        return org.camdoop.shuffle.daemon.status.StatusHttpServer.start(address, () -> snapshot(server), torus);
    }

    public CamdoopService service(int server) {
        CamdoopService s = services.get(server);
        if (s == null) {
            throw new IllegalArgumentException("server " + shape.coord(server) + " is not live");
        }
        return s;
    }

    /**
     * Crashes one daemon, as {@code kill -9} would: it stops listening, its shuffles stop without telling anyone, its
     * links drop without a goodbye and never come back. A neighbour that dials it is refused at its next redial and
     * declares it failed then; the others hear of it, or declare it after their failure timeout. The shuffles it took
     * part in recover without it (docs/recovery.md).
     */
    public void crash(int server) {
        CamdoopService dying = service(server);
        // The links go first: halting the service first let its aborted vertices tell their parents on the torus
        // ("child failed: ... crashed"), which a killed process never does, and the root failed the shuffle instead
        // of restarting it (a fault campaign run, once the tests ran faster).
        nodes.get(server).crash();
        dying.halt("daemon " + shape.coord(server) + " crashed");
        crashed.add(server);
    }

    /**
     * Starts a new run of a daemon that {@link #crash crashed}, as an operator or the NodeManager restarts a killed
     * process: a new transport with a larger incarnation, a new service knowing nothing of jobs, map outputs (what its
     * tasks had registered died with the process) or failures. Its neighbours redial it; once a link is up, each learns
     * from the handshake that this is a later run and the server rejoins every daemon's view (docs/recovery.md,
     * "Rejoin"). Returns without waiting for the links.
     */
    public void restart(int server) throws IOException, InterruptedException {
        if (!crashed.remove(server)) {
            throw new IllegalArgumentException("server " + shape.coord(server) + " has no crashed daemon to restart");
        }
        outputs.remove(server);
        registries.get(server).close();
        startDaemon(server);
    }

    public TorusNode node(int server) {
        return nodes.get(server);
    }

    @Override
    public void close() throws InterruptedException {
        // All nodes first learn that the whole torus is going down, so none logs its neighbours' exits as failures.
        for (TorusNode n : nodes) {
            if (n != null) {
                n.expectShutdown();
            }
        }
        for (TorusNode n : nodes) {
            if (n != null) {
                n.close();
            }
        }
        timer.shutdownNow();
        vertexThreads.shutdownNow();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
        vertexThreads.awaitTermination(10, TimeUnit.SECONDS);
        for (JobRegistry r : registries) {
            if (r != null) {
                r.close();
            }
        }
        deleteTree(jarCacheRoot);
    }

    private static void deleteTree(java.nio.file.Path root) {
        try (java.util.stream.Stream<java.nio.file.Path> walk = Files.walk(root)) {
            for (java.nio.file.Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // Temporary files only: leaving some behind is harmless.
        }
    }
}
