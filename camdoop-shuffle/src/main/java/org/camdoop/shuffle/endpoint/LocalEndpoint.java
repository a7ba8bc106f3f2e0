package org.camdoop.shuffle.endpoint;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.camdoop.shuffle.jobs.JarCache;
import org.camdoop.shuffle.jobs.JobRegistry;
import org.camdoop.shuffle.jobs.JobTokens;
import org.camdoop.shuffle.protocol.DeadlineChannel;
import org.camdoop.shuffle.protocol.LocalWire;
import org.camdoop.shuffle.protocol.Refusal;
import org.camdoop.shuffle.protocol.UnixPeers;
import org.camdoop.shuffle.service.CamdoopService;
import org.camdoop.torus.topology.Coord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's end of the local protocol ({@link LocalWire}): a Unix domain socket server for the tasks on this server.
 * One thread accepts; each connection gets a thread from a pool bounded by the connection cap
 * ({@link Limits#maxConnections}); a connection over the cap is told so and closed at once. Each connection learns its
 * peer's user from SO_PEERCRED when accepted ({@link LocalConnection}).
 *
 * <p>One lock, {@link #lock}, guards {@link #open} (the live connections, closed by {@link #close()}).
 */
public final class LocalEndpoint implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LocalEndpoint.class);
    /** How long one wait for the root stream lasts before checking whether the endpoint closed. */
    static final Duration POLL = Duration.ofSeconds(1);
    /** How long a shuffle request waits for this daemon's torus links to come up before it is refused. */
    static final Duration LINKS_WAIT = Duration.ofSeconds(10);
    private static final int SPARE_THREADS = 8;
    /** Name prefix of a private directory made for the socket under /tmp; removed with the socket. */
    public static final String PRIVATE_DIR_PREFIX = "camdoop-sock-";

    /** Waits until the daemon's links to live neighbours are all up (a START sent before then could be lost). */
    @FunctionalInterface
    public interface LinksReady {
        /** @return whether the links are up; false if {@code timeout} passed first */
        boolean await(Duration timeout) throws InterruptedException;
    }

    /** What the endpoint serves: the daemon's parts. */
    public record Parts(Coord coord, JobRegistry registry, JobTokens tokens, JarCache jars, CamdoopService service,
            LinksReady links) {
    }

    /**
     * The endpoint's bounds: connections at once (in all, and per user other than the daemon's), and the deadlines of
     * a connection (the frame timeout also bounds how long a reply may wait for the task to read).
     */
    public record Limits(int maxConnections, int maxConnectionsPerUser, long idleTimeoutMs, long frameTimeoutMs,
            long pauseTimeoutMs) {
        public Limits {
            if (maxConnections <= 0 || maxConnectionsPerUser <= 0 || idleTimeoutMs <= 0 || frameTimeoutMs <= 0
                    || pauseTimeoutMs <= 0) {
                throw new IllegalArgumentException("local endpoint limits must be positive: " + maxConnections + ", "
                        + maxConnectionsPerUser + ", " + idleTimeoutMs + ", " + frameTimeoutMs + ", "
                        + pauseTimeoutMs);
            }
        }
    }

    private final Parts parts;
    private final Limits limits;
    private final Path socket;
    private final String daemonUser;
    private final ServerSocketChannel server;
    private final ThreadPoolExecutor threads;
    private final Thread acceptor;
    private final Object lock = new Object();
    /** Guarded by {@link #lock}. */
    private final Set<DeadlineChannel> open = new HashSet<>();
    /** Guarded by {@link #lock}. */
    private final ConnectionQuota quota;
    private volatile boolean closed;

    private LocalEndpoint(Parts parts, Limits limits, Path socket, String daemonUser, ServerSocketChannel server) {
        this.parts = parts;
        this.limits = limits;
        this.socket = socket;
        this.daemonUser = daemonUser;
        this.server = server;
        this.quota = new ConnectionQuota(limits.maxConnections(), limits.maxConnectionsPerUser(), daemonUser);
        AtomicInteger n = new AtomicInteger();
        // A few threads over the cap: a finished connection leaves the open set just before its thread is free.
        this.threads = new ThreadPoolExecutor(0, limits.maxConnections() + SPARE_THREADS, 60, TimeUnit.SECONDS,
                new SynchronousQueue<>(), r -> {
                    Thread t = new Thread(r, "camdoop-local-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        this.acceptor = new Thread(this::acceptLoop, "camdoop-local-accept");
        this.acceptor.setDaemon(true);
    }

    /**
     * Listens on the Unix domain socket {@code socket} and starts accepting. Its directory is created if absent; a
     * socket file nobody answers on (a dead daemon's) is replaced, one a live process answers on is an error.
     */
    public static LocalEndpoint start(Parts parts, Limits limits, Path socket) throws IOException {
        Path dir = socket.toAbsolutePath().getParent();
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(
                    PosixFilePermissions.fromString("rwxr-xr-x")));
        }
        if (Files.exists(socket, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            try (SocketChannel probe = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
                throw new IOException("another process (user " + UnixPeers.peerUser(probe) + ") listens on the local"
                        + " socket " + socket + ": give each daemon its own camdoop.daemon.local-dirs or"
                        + " camdoop.daemon.local.socket");
            } catch (java.net.SocketException stale) {
                Files.delete(socket); // left by a daemon that died
            }
        }
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            server.bind(UnixDomainSocketAddress.of(socket), 64);
            // Any local user may connect (tasks of every job); who they are is checked per request.
            Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rwxrwxrwx"));
        } catch (IOException | RuntimeException e) {
            server.close();
            throw new IOException("cannot listen on the local socket " + socket + ": " + e.getMessage(), e);
        }
        LocalEndpoint endpoint = new LocalEndpoint(parts, limits, socket, UnixPeers.processUser(), server);
        endpoint.acceptor.start();
        LOG.info("Camdoop daemon {}: local endpoint on {} (user {}, at most {} connections)", parts.coord(), socket,
                endpoint.daemonUser, limits.maxConnections());
        return endpoint;
    }

    /** The bound socket. */
    public Path socket() {
        return socket;
    }

    Parts parts() {
        return parts;
    }

    Limits limits() {
        return limits;
    }

    String daemonUser() {
        return daemonUser;
    }

    boolean closed() {
        return closed;
    }

    private void acceptLoop() {
        while (!closed) {
            SocketChannel ch;
            try {
                ch = server.accept();
            } catch (IOException e) {
                if (!closed) {
                    LOG.warn("local endpoint accept failed: {}", e.getMessage());
                }
                continue;
            }
            try {
                admit(ch);
            } catch (IOException | RuntimeException e) {
                LOG.warn("local connection dropped at accept: {}", e.toString());
                closeQuietly(ch);
            }
        }
    }

    private void admit(SocketChannel ch) throws IOException {
        String peer = UnixPeers.peerUser(ch);
        DeadlineChannel channel = DeadlineChannel.of(ch, System::nanoTime);
        String why;
        synchronized (lock) {
            if (closed) {
                channel.close();
                return;
            }
            why = quota.admit(peer);
            if (why == null) {
                open.add(channel);
            }
        }
        LocalConnection connection = new LocalConnection(this, channel, peer);
        if (why != null) {
            LOG.warn("{}", why);
            try (channel) {
                connection.refuse(Refusal.REFUSED, why);
            }
            return;
        }
        try {
            threads.execute(() -> {
                try {
                    connection.serve();
                } finally {
                    forget(channel, peer);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            forget(channel, peer);
            if (!closed) {
                LOG.warn("local connection from user {} dropped: no thread free", peer);
            }
        }
    }

    private void forget(DeadlineChannel channel, String peer) {
        synchronized (lock) {
            if (open.remove(channel)) {
                quota.release(peer);
            }
        }
        closeQuietly(channel);
    }

    /** Waits for the torus links; false if they are not up in time or the endpoint closed. */
    boolean awaitLinks() throws IOException {
        try {
            return !closed && parts.links().await(LINKS_WAIT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.nio.channels.ClosedChannelException();
        }
    }

    /** Connections open now. */
    public int openConnections() {
        synchronized (lock) {
            return open.size();
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            LOG.debug("closing local connection: {}", e.getMessage());
        }
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(server);
        synchronized (lock) {
            for (DeadlineChannel c : open) {
                closeQuietly(c);
            }
            open.clear();
        }
        threads.shutdownNow();
        try {
            Files.deleteIfExists(socket);
            if (socket.getParent().getFileName().toString().startsWith(PRIVATE_DIR_PREFIX)) {
                Files.deleteIfExists(socket.getParent()); // the private /tmp directory made for it, now empty
            }
        } catch (IOException e) {
            LOG.debug("removing {}: {}", socket, e.getMessage());
        }
    }
}
