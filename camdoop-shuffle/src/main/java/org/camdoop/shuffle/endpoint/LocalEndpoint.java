package org.camdoop.shuffle.endpoint;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.camdoop.shuffle.jobs.JarCache;
import org.camdoop.shuffle.jobs.JobRegistry;
import org.camdoop.shuffle.jobs.JobTokens;
import org.camdoop.shuffle.jobs.MapOutputOutcome;
import org.camdoop.shuffle.jobs.RegisterOutcome;
import org.camdoop.shuffle.jobs.Verdict;
import org.camdoop.shuffle.protocol.JarDigest;
import org.camdoop.shuffle.protocol.JobSpec;
import org.camdoop.shuffle.protocol.JobSpecCodec;
import org.camdoop.shuffle.protocol.LocalWire;
import org.camdoop.shuffle.protocol.MalformedJobSpecException;
import org.camdoop.shuffle.protocol.MapOutput;
import org.camdoop.shuffle.protocol.MapOutputRegistration;
import org.camdoop.shuffle.protocol.Refusal;
import org.camdoop.shuffle.protocol.ShuffleCodes;
import org.camdoop.shuffle.protocol.ShuffleKeys;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.service.CamdoopService;
import org.camdoop.shuffle.protocol.StreamItem;
import org.camdoop.shuffle.service.RootStream;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.trees.TreeChoice;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's end of the local protocol ({@link LocalWire}): a loopback TCP server for the tasks on this server. One
 * thread accepts; each connection gets its own thread that reads requests and answers them in order; a shuffle's root
 * stream is copied to its socket on that thread, blocking, so a slow reducer holds the root back through TCP.
 *
 * <p>One lock, {@link #lock}, guards {@link #open} (the live connections, closed by {@link #close()}).
 */
public final class LocalEndpoint implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LocalEndpoint.class);
    /** How long one wait for the root stream lasts before checking whether the endpoint closed. */
    private static final Duration POLL = Duration.ofSeconds(1);

    /** How long a shuffle request waits for this daemon's torus links to come up before it is refused. */
    private static final Duration LINKS_WAIT = Duration.ofSeconds(10);

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

    private final Parts parts;
    private final ServerSocket server;
    private final ExecutorService threads;
    private final Object lock = new Object();
    /** Guarded by {@link #lock}. */
    private final Set<Socket> open = new HashSet<>();
    private volatile boolean closed;

    private LocalEndpoint(Parts parts, ServerSocket server, ExecutorService threads) {
        this.parts = parts;
        this.server = server;
        this.threads = threads;
    }

    /** Listens on loopback {@code port} (0: an ephemeral port) and starts accepting. */
    public static LocalEndpoint start(Parts parts, int port) throws IOException {
        ServerSocket server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
        AtomicInteger n = new AtomicInteger();
        ExecutorService threads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "camdoop-local-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        LocalEndpoint endpoint = new LocalEndpoint(parts, server, threads);
        threads.execute(endpoint::acceptLoop);
        LOG.info("Camdoop daemon {}: local endpoint on {}", parts.coord(), server.getLocalSocketAddress());
        return endpoint;
    }

    /** The bound port. */
    public int port() {
        return server.getLocalPort();
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket s = server.accept();
                synchronized (lock) {
                    if (closed) {
                        s.close();
                        return;
                    }
                    open.add(s);
                }
                threads.execute(() -> serve(s));
            } catch (IOException e) {
                if (!closed) {
                    LOG.warn("local endpoint accept failed: {}", e.getMessage());
                }
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            socket.setTcpNoDelay(true);
            DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), 1 << 16));
            LocalWire.Frame request;
            while ((request = LocalWire.read(in)) != null) {
                handle(request, socket.getInetAddress(), out);
            }
        } catch (SocketException e) {
            // The task went away (or close() closed the socket): nothing to answer.
        } catch (IOException | RuntimeException | LinkageError e) {
            LOG.warn("local connection from {} failed: {}", socket.getRemoteSocketAddress(), e.toString());
        } finally {
            synchronized (lock) {
                open.remove(socket);
            }
        }
    }

    private void handle(LocalWire.Frame request, InetAddress client, DataOutputStream out) throws IOException {
        DataInputStream in = request.in();
        try {
            switch (request.type()) {
                case LocalWire.REGISTER_JOB -> registerJob(in, out);
                case LocalWire.REGISTER_MAP_OUTPUT -> registerMapOutput(in, out);
                case LocalWire.PUT_JAR -> putJar(in, out);
                case LocalWire.CLAIM_TOKEN -> claimToken(in, client, out);
                case LocalWire.START_SHUFFLE -> startShuffle(in, out);
                default -> refuse(out, Refusal.MALFORMED, "unknown local request type " + request.type());
            }
        } catch (java.io.EOFException | IllegalArgumentException | MalformedJobSpecException e) {
            refuse(out, Refusal.MALFORMED, "malformed local request " + request.type() + ": " + e.getMessage());
        }
    }

    private void registerJob(DataInputStream in, DataOutputStream out) throws IOException {
        JobSpec spec = JobSpecCodec.decode(LocalWire.readBytes(in));
        byte[] proof = LocalWire.readBytes(in);
        RegisterOutcome o = parts.registry().registerFromTask(spec, proof);
        switch (o.kind()) {
            case REGISTERED, ALREADY_REGISTERED -> ok(out, o.message());
            case MISSING_JARS -> refuse(out, Refusal.MISSING_JARS, o.message());
            case REFUSED -> refuse(out, o.refusal().orElseThrow(), o.message());
            default -> throw new IllegalStateException("unexpected outcome " + o.kind());
        }
    }

    private void registerMapOutput(DataInputStream in, DataOutputStream out) throws IOException {
        MapOutput output = new MapOutput(in.readUTF(), in.readUTF(), in.readInt());
        MapOutputOutcome o = parts.registry().registerMapOutput(
                new MapOutputRegistration(output, LocalWire.readBytes(in)));
        if (o.kind() == MapOutputOutcome.Kind.REFUSED) {
            refuse(out, o.refusal().orElseThrow(), o.message());
        } else {
            ok(out, o.message());
        }
    }

    private void putJar(DataInputStream in, DataOutputStream out) throws IOException {
        byte[] jar = LocalWire.readBytes(in);
        JarDigest digest = JarDigest.of(jar);
        parts.jars().put(digest, jar);
        ok(out, "jar " + digest + " cached");
    }

    private void claimToken(DataInputStream in, InetAddress client, DataOutputStream out) throws IOException {
        String jobId = in.readUTF();
        Verdict v = parts.tokens().claimOnFirstUse(jobId, LocalWire.readBytes(in), client);
        if (v.accepted()) {
            ok(out, "job token for " + jobId + " accepted");
        } else {
            refuse(out, v.refusal().orElseThrow(), v.reason());
        }
    }

    private void startShuffle(DataInputStream in, DataOutputStream out) throws IOException {
        String jobId = in.readUTF();
        int partition = in.readInt();
        int attempt = in.readInt();
        ShuffleMode mode = ShuffleCodes.mode(in.readUnsignedByte());
        TreeChoice trees = ShuffleCodes.trees(in.readUnsignedByte());
        int n = in.readInt();
        if (n < 0 || n > in.available()) {
            throw new IllegalArgumentException("bad map attempt count " + n);
        }
        TreeSet<String> expected = new TreeSet<>();
        for (int i = 0; i < n; i++) {
            expected.add(in.readUTF());
        }
        byte[] proof = LocalWire.readBytes(in);
        Verdict v = parts.tokens().checkShuffle(jobId, partition, attempt, proof);
        if (!v.accepted()) {
            refuse(out, v.refusal().orElseThrow(), v.reason());
            return;
        }
        if (parts.registry().lookup(jobId).isEmpty()) {
            String why = "unknown job " + jobId + ": its spec is not registered with this daemon";
            refuse(out, Refusal.UNKNOWN_JOB, why);
            return;
        }
        ShuffleSpec spec = new ShuffleSpec(ShuffleKeys.jobKey(jobId), jobId, partition, attempt, parts.coord(), mode,
                trees, expected);
        if (!awaitLinks()) {
            refuse(out, Refusal.REFUSED, "daemon " + parts.coord() + " cannot root a shuffle yet: its torus links are"
                    + " not all up after " + LINKS_WAIT.toMillis() + " ms");
            return;
        }
        RootStream root;
        try {
            root = parts.service().startShuffle(spec);
        } catch (RuntimeException e) {
            refuse(out, Refusal.REFUSED, "shuffle " + spec.describe() + " could not start: " + e);
            return;
        }
        ok(out, parts.coord().toString());
        stream(spec, root, out);
    }

    private boolean awaitLinks() throws IOException {
        try {
            return !closed && parts.links().await(LINKS_WAIT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SocketException("interrupted");
        }
    }

    /** Copies the root stream to the task; a task that goes away aborts the shuffle everywhere. */
    private void stream(ShuffleSpec spec, RootStream root, DataOutputStream out) throws IOException {
        try {
            while (true) {
                if (closed) {
                    parts.service().abort(spec, "daemon " + parts.coord() + " stopping", true);
                    return;
                }
                StreamItem next = root.next(POLL);
                if (next instanceof StreamItem.Chunk c) {
                    LocalWire.write(out, LocalWire.CHUNK, c.bytes(), c.length());
                } else if (next instanceof StreamItem.End e) {
                    byte[] b = e.end().encode();
                    LocalWire.write(out, LocalWire.END, b, b.length);
                    return;
                } else if (next instanceof StreamItem.Failed f) {
                    byte[] b = LocalWire.body(o -> o.writeUTF(f.reason()));
                    LocalWire.write(out, LocalWire.FAILED, b, b.length);
                    return;
                }
            }
        } catch (IOException e) {
            parts.service().abort(spec, "reduce task went away: " + e.getMessage(), true);
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            parts.service().abort(spec, "daemon " + parts.coord() + " stopping", true);
            throw new SocketException("interrupted");
        }
    }

    private static void ok(DataOutputStream out, String message) throws IOException {
        byte[] b = LocalWire.body(o -> o.writeUTF(message));
        LocalWire.write(out, LocalWire.OK, b, b.length);
    }

    private static void refuse(DataOutputStream out, Refusal why, String message) throws IOException {
        LOG.info("local request refused ({}): {}", why, message);
        byte[] b = LocalWire.body(o -> {
            o.writeByte(why.code());
            o.writeUTF(message);
        });
        LocalWire.write(out, LocalWire.REFUSED, b, b.length);
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException e) {
            LOG.debug("closing local endpoint: {}", e.getMessage());
        }
        synchronized (lock) {
            for (Socket s : open) {
                try {
                    s.close();
                } catch (IOException e) {
                    LOG.debug("closing local connection: {}", e.getMessage());
                }
            }
            open.clear();
        }
        threads.shutdownNow();
    }
}
