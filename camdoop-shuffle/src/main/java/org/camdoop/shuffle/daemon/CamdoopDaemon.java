package org.camdoop.shuffle.daemon;

import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.camdoop.shuffle.endpoint.LocalEndpoint;
import org.camdoop.shuffle.jobs.JarCache;
import org.camdoop.shuffle.jobs.JobRegistry;
import org.camdoop.shuffle.jobs.JobTokens;
import org.camdoop.shuffle.jobs.JobsConfig;
import org.camdoop.shuffle.jobs.MapOutputLocator;
import org.camdoop.shuffle.protocol.DaemonSocketFile;
import org.camdoop.shuffle.daemon.status.DaemonSnapshot;
import org.camdoop.shuffle.daemon.status.PeerStatusView;
import org.camdoop.shuffle.daemon.status.StatusHttpServer;
import org.camdoop.shuffle.service.CamdoopService;
import org.camdoop.shuffle.service.VertexExecutor;
import org.camdoop.shuffle.service.pacing.StreamPacer;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.Topology;
import org.camdoop.torus.transport.TorusNode;
import org.camdoop.torus.transport.TransportConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Camdoop daemon: its torus transport, job registry and shuffle service, configured from
 * {@code camdoop-site.xml}. Started standalone by {@code scripts/camdoop-daemon.sh} (see {@link DaemonMain}) or
 * inside a NodeManager by {@link CamdoopShuffleHandler}. {@link #close()} stops it cleanly: no thread, socket, class loader
 * or buffer outlives it.
 */
public final class CamdoopDaemon implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CamdoopDaemon.class);

    private final Coord coord;
    private final EventLoopGroup loop;
    private final ExecutorService vertices;
    private final ScheduledExecutorService housekeeping;
    private final TorusNode node;
    private final JobTokens tokens;
    private final JobRegistry registry;
    private final CamdoopService service;
    private final LocalEndpoint local;
    /** The {@code camdoop/daemon.socket} files this daemon wrote, removed when it stops. */
    private final List<Path> socketFiles;
    /** The status file ({@link DaemonConfig#STATUS_FILE}), or null. */
    private final StatusFile status;
    /** The HTTP status endpoint ({@link DaemonConfig#HTTP_PORT}), or null. */
    private final StatusHttpServer http;

    private CamdoopDaemon(Coord coord, EventLoopGroup loop, ExecutorService vertices,
            ScheduledExecutorService housekeeping, TorusNode node, JobTokens tokens, JobRegistry registry,
            CamdoopService service, LocalEndpoint local, List<Path> socketFiles, StatusFile status,
            StatusHttpServer http) {
        this.socketFiles = socketFiles;
        this.status = status;
        this.http = http;
        this.coord = coord;
        this.loop = loop;
        this.vertices = vertices;
        this.housekeeping = housekeeping;
        this.node = node;
        this.tokens = tokens;
        this.registry = registry;
        this.service = service;
        this.local = local;
    }

    /**
     * Starts a standalone daemon from {@code conf}: map outputs are looked for under
     * {@link org.camdoop.shuffle.jobs.JobsConfig#LOCAL_DIRS}.
     *
     * @throws IllegalArgumentException for a configuration problem, with a one-line message naming the key
     */
    public static CamdoopDaemon start(Configuration conf) throws IOException, InterruptedException {
        return start(conf, MapOutputLocator.standalone(conf));
    }

    /**
     * Starts a daemon from {@code conf} that finds its tasks' map outputs with {@code outputs} (inside a NodeManager:
     * the NodeManager's local dirs).
     *
     * @throws IllegalArgumentException for a configuration problem, with a one-line message naming the key
     */
    public static CamdoopDaemon start(Configuration conf, MapOutputLocator outputs)
            throws IOException, InterruptedException {
        DaemonConfig daemon = DaemonConfig.from(conf);
        TransportConfig transport = daemon.transport();
        transport.clusterSecret();
        Topology topology = Topology.load(Path.of(transport.topologyFile()));
        TorusShape shape = topology.shape();
        Coord coord = daemon.coordinate().orElseGet(() -> localCoordinate(topology));
        if (!shape.contains(coord) || topology.address(shape.index(coord)) == null) {
            throw new IllegalArgumentException(DaemonConfig.COORDINATE + " " + coord + " has no line in the topology file "
                    + transport.topologyFile());
        }
        FailureView view = FailureView.none(shape);
        for (int s = 0; s < shape.size(); s++) {
            if (topology.address(s) == null) {
                view = view.withVacant(shape.coord(s));
            }
        }
        JobsConfig jobs = JobsConfig.from(conf);
        List<Path> localDirs = daemon.localDirs();
        JarCache jarCache = JarCache.open(jobs, localDirs.get(0).resolve("camdoop/jar-cache"));
        EventLoopGroup loop = TorusNode.groupFor(topology, transport, 1);
        ExecutorService vertices = new VertexExecutor(daemon.vertexThreads(), named("camdoop-vertex"));
        ScheduledExecutorService housekeeping = Executors.newSingleThreadScheduledExecutor(named("camdoop-housekeeping"));
        TorusNode node = null;
        JobRegistry registry = null;
        try {
            node = TorusNode.start(transport, topology, coord, loop, view,
                    TorusTls.from(conf, transport).orElse(null));
            DaemonAssembly.Parts parts = DaemonAssembly.assemble(daemon, jobs, jarCache, outputs, node, view, vertices,
                    housekeeping, StreamPacer.NONE, DaemonAssembly.REGISTRY);
            registry = parts.registry();
            JobRegistry jobRegistry = registry;
            CamdoopService service = parts.service();
            long every = daemon.expiryIntervalMs();
            housekeeping.scheduleWithFixedDelay(() -> {
                for (String expired : jobRegistry.expireIdle()) {
                    service.forgetJob(expired);
                    LOG.info("job {} idle for too long: forgotten", expired);
                }
                for (String unused : parts.tokens().forgetUnregisteredOwners(id -> jobRegistry.lookup(id).isPresent())) {
                    LOG.info("job {}, owned on first use, not registered here at two sweeps in a row: its owner is forgotten", unused);
                }
            }, every, every, TimeUnit.MILLISECONDS);
            LOG.info("Camdoop daemon {} of torus {} listening on {}", coord, shape, node.boundAddress());
            TorusNode readyNode = node;
            LocalEndpoint local = LocalEndpoint.start(
                    new LocalEndpoint.Parts(coord, registry, parts.tokens(), jarCache, service,
                            timeout -> readyNode.awaitLinksUp(service::view, timeout)),
                    daemon.localLimits(), daemon.localSocket().orElse(LocalSockets.defaultSocket(localDirs.get(0))));
            List<Path> socketFiles = new ArrayList<>();
            StatusFile status;
            try {
                for (Path dir : localDirs) {
                    socketFiles.add(DaemonSocketFile.write(dir, local.socket()));
                }
                // Written last: its appearance tells sbin/camdoop-daemon.sh the daemon is up.
                status = daemon.statusFile().isPresent() ? StatusFile.keep(daemon.statusFile().get(), node) : null;
            } catch (IOException | RuntimeException e) {
                local.close();
                throw e;
            }
            StatusHttpServer http = startHttp(daemon, topology, coord, () -> snapshotOf(readyNode, service, jobRegistry));
            return new CamdoopDaemon(coord, loop, vertices, housekeeping, node, parts.tokens(), registry, service,
                    local, socketFiles, status, http);
        } catch (RuntimeException | InterruptedException | IOException e) {
            if (node != null) {
                node.close();
            }
            housekeeping.shutdownNow();
            vertices.shutdownNow();
            loop.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            if (registry != null) {
                registry.close();
            }
            throw e;
        }
    }

    /**
     * The status endpoint on the host of this daemon's topology line, or null: none configured, or the port is taken
     * (a WARN line; the shuffle does not depend on it, so the daemon runs on).
     */
    private static StatusHttpServer startHttp(DaemonConfig daemon, Topology topology, Coord coord,
            java.util.function.Supplier<DaemonSnapshot> snapshot) {
        if (daemon.httpPort().isEmpty()) {
            return null;
        }
        SocketAddress own = topology.address(topology.shape().index(coord));
        String host = own instanceof InetSocketAddress inet ? inet.getHostString() : "127.0.0.1";
        InetSocketAddress address = new InetSocketAddress(host, daemon.httpPort().getAsInt());
        try {
            // The page asks the other daemons on the same port: every daemon of a cluster uses one status port.
            return StatusHttpServer.start(address, snapshot,
                    new PeerStatusView(topology, coord, daemon.httpPort().getAsInt(), snapshot, System::nanoTime));
        } catch (IOException | RuntimeException e) {
            LOG.warn("no status endpoint: cannot listen on {}:{} ({}); set {} (-1: none)", host,
                    address.getPort(), e.toString(), DaemonConfig.HTTP_PORT);
            return null;
        }
    }

    /** The coordinate whose topology line names this machine; several (e.g. one per NodeManager) need the key. */
    private static Coord localCoordinate(Topology topology) {
        List<Coord> matches = coordinatesOfThisHost(topology);
        if (matches.size() != 1) {
            throw new IllegalArgumentException((matches.isEmpty() ? "no line of the topology file names this host"
                    : "the topology file names this host for " + matches) + ": set " + DaemonConfig.COORDINATE);
        }
        return matches.get(0);
    }

    /** The coordinates whose topology lines name an address of this machine, in index order. */
    static List<Coord> coordinatesOfThisHost(Topology topology) {
        Set<InetAddress> mine = localAddresses();
        TorusShape shape = topology.shape();
        List<Coord> matches = new ArrayList<>();
        for (int s = 0; s < shape.size(); s++) {
            SocketAddress a = topology.address(s);
            if (a instanceof InetSocketAddress inet) {
                InetAddress host = inet.isUnresolved() ? resolve(inet.getHostString()) : inet.getAddress();
                if (host != null && mine.contains(host)) {
                    matches.add(shape.coord(s));
                }
            }
        }
        return matches;
    }

    private static InetAddress resolve(String host) {
        try {
            return InetAddress.getByName(host);
        } catch (IOException e) {
            return null;
        }
    }

    private static Set<InetAddress> localAddresses() {
        Set<InetAddress> out = new HashSet<>();
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                out.addAll(Collections.list(nic.getInetAddresses()));
            }
        } catch (IOException e) {
            LOG.warn("cannot list network interfaces: {}", e.getMessage());
        }
        return out;
    }

    private static java.util.concurrent.ThreadFactory named(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    public Coord coord() {
        return coord;
    }

    public TorusNode node() {
        return node;
    }

    public CamdoopService service() {
        return service;
    }

    /** The daemon's figures now (what its status endpoint and metrics source publish). */
    public DaemonSnapshot snapshot() {
        return snapshotOf(node, service, registry);
    }

    private static DaemonSnapshot snapshotOf(TorusNode node, CamdoopService service, JobRegistry registry) {
        java.util.Map<String, Integer> jobs = new java.util.TreeMap<>();
        for (String job : registry.jobIds()) {
            jobs.put(job, registry.mapOutputs(job).size());
        }
        return DaemonSnapshot.of(node, service, jobs);
    }

    /** Where the HTTP status endpoint listens, if it does. */
    public java.util.Optional<InetSocketAddress> statusAddress() {
        return http == null ? java.util.Optional.empty() : java.util.Optional.of(http.address());
    }

    public JobRegistry registry() {
        return registry;
    }

    /** The Unix domain socket where this daemon's tasks reach it ({@link org.camdoop.shuffle.client.DaemonClient}). */
    public Path localSocket() {
        return local.socket();
    }

    /** The job ended: unregisters it and forgets its spec broadcast state. Returns whether it was registered. */
    public boolean endJob(String jobId) {
        service.forgetJob(jobId);
        return registry.unregister(jobId);
    }

    /** Where job tokens and users are learned (CamdoopShuffleHandler's initializeApplication) and checked. */
    public JobTokens tokens() {
        return tokens;
    }

    @Override
    public void close() throws InterruptedException {
        LOG.info("Camdoop daemon {} stopping", coord);
        if (http != null) {
            http.close();
        }
        local.close();
        for (Path f : socketFiles) {
            try {
                java.nio.file.Files.deleteIfExists(f);
            } catch (IOException e) {
                LOG.warn("could not remove {}: {}", f, e.getMessage());
            }
        }
        if (status != null) {
            try {
                status.close();
            } catch (IOException e) {
                LOG.warn("could not remove the status file: {}", e.getMessage());
            }
        }
        housekeeping.shutdownNow();
        node.close();
        vertices.shutdownNow();
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
        vertices.awaitTermination(10, TimeUnit.SECONDS);
        registry.close();
    }
}
