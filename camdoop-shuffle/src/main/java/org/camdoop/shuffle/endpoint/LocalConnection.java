package org.camdoop.shuffle.endpoint;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.channels.ClosedChannelException;
import java.security.SecureRandom;
import java.util.TreeSet;
import org.camdoop.shuffle.jobs.JarCache;
import org.camdoop.shuffle.jobs.MapOutputOutcome;
import org.camdoop.shuffle.jobs.RegisterOutcome;
import org.camdoop.shuffle.jobs.Verdict;
import org.camdoop.shuffle.protocol.DeadlineChannel;
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
import org.camdoop.shuffle.service.RootStream;
import org.camdoop.shuffle.service.net.StartProof;
import org.camdoop.torus.trees.TreeChoice;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One task's connection to the daemon ({@link LocalWire}): reads requests and answers them in order on its own thread.
 * Every request that names a job is first authorised for the connection's peer user (SO_PEERCRED, fixed at connect)
 * by {@code JobTokens.authorise}, then its job token proof is checked. Reads have deadlines: the next frame must begin
 * within the idle timeout, and a frame once begun must complete within the frame timeout, else the connection is
 * closed with a log line. State ({@link #nonce}) belongs to the connection's thread alone.
 */
final class LocalConnection {
    private static final Logger LOG = LoggerFactory.getLogger(LocalConnection.class);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final LocalEndpoint endpoint;
    private final DeadlineChannel channel;
    private final String peer;
    private final DataInputStream in;
    private final DataOutputStream out;
    /** The nonce of the last NONCE reply, good for one START_SHUFFLE; null when none is outstanding. */
    private byte[] nonce;
    /** The request being handled was authorised for its job: only such a request restarts the idle timer. */
    private boolean authorisedNow;

    LocalConnection(LocalEndpoint endpoint, DeadlineChannel channel, String peer) {
        this.endpoint = endpoint;
        this.channel = channel;
        this.peer = peer;
        this.in = new DataInputStream(new BufferedInputStream(channel.input(), 1 << 16));
        this.out = new DataOutputStream(new BufferedOutputStream(channel.output(), 1 << 16));
    }

    String peer() {
        return peer;
    }

    /** Serves requests until the task closes the connection, breaks the protocol, or times out. */
    void serve() {
        LocalEndpoint.Limits limits = endpoint.limits();
        // Replies are small: a task that reads none of them for a frame timeout is not a task.
        channel.writeStallLimit(limits.frameTimeoutMs());
        try {
            // Only a request authorised for its job keeps a connection (and its thread): not NONCEs, which ask nothing
            // of a job, nor refused requests. The idle time is wall-clock, whatever was queued or being answered.
            long idleSince = System.nanoTime();
            while (true) {
                long idleLeftMs = limits.idleTimeoutMs() - (System.nanoTime() - idleSince) / 1_000_000L;
                if (idleLeftMs <= 0) {
                    throw new SocketTimeoutException("idle");
                }
                channel.readDeadline(idleLeftMs);
                LocalWire.Frame request = LocalWire.read(in, LocalWire::requestCap,
                        () -> channel.readDeadline(limits.frameTimeoutMs()));
                if (request == null) {
                    return;
                }
                channel.noReadDeadline();
                authorisedNow = false;
                handle(request);
                if (authorisedNow) {
                    idleSince = System.nanoTime();
                }
            }
        } catch (DeadlineChannel.WriteStalledException e) {
            LOG.warn("local connection from user {} closed: {}", peer, e.getMessage());
        } catch (LocalWire.BadFrameException e) {
            LOG.warn("local connection from user {} closed: {}", peer, e.getMessage());
            tryRefuse(Refusal.MALFORMED, e.getMessage());
        } catch (SocketTimeoutException e) {
            LOG.warn("local connection from user {} closed: no complete request within {} ms (idle) / {} ms (frame)",
                    peer, limits.idleTimeoutMs(), limits.frameTimeoutMs());
        } catch (ClosedChannelException e) {
            // The task went away, or the endpoint closed.
        } catch (IOException | RuntimeException | LinkageError e) {
            LOG.warn("local connection from user {} failed: {}", peer, e.toString());
        }
    }

    private void handle(LocalWire.Frame request) throws IOException {
        DataInputStream body = request.in();
        try {
            switch (request.type()) {
                case LocalWire.REGISTER_JOB -> registerJob(body);
                case LocalWire.REGISTER_MAP_OUTPUT -> registerMapOutput(body);
                case LocalWire.PUT_JAR -> putJar(body);
                case LocalWire.START_SHUFFLE -> startShuffle(body);
                case LocalWire.NONCE -> issueNonce();
                default -> throw new LocalWire.BadFrameException("local request type " + request.type()
                        + " out of place");
            }
        } catch (java.io.EOFException e) {
            refuse(Refusal.MALFORMED, "malformed local request " + request.type() + ": its " + request.body().length
                    + "-byte body ends before its last field");
        } catch (IllegalArgumentException | MalformedJobSpecException e) {
            refuse(Refusal.MALFORMED, "malformed local request " + request.type() + ": " + e.getMessage());
        }
    }

    /** Whether the peer may act for {@code jobId}; refuses (and says so) if not. */
    private boolean authorised(String jobId) throws IOException {
        Verdict v = endpoint.parts().tokens().authorise(jobId, peer, endpoint.daemonUser());
        if (!v.accepted()) {
            refuse(v.refusal().orElseThrow(), v.reason());
        }
        authorisedNow = v.accepted();
        return v.accepted();
    }

    private void registerJob(DataInputStream body) throws IOException {
        JobSpec spec = JobSpecCodec.decode(LocalWire.readBytes(body));
        byte[] proof = LocalWire.readBytes(body);
        if (!authorised(spec.jobId())) {
            return;
        }
        RegisterOutcome o = endpoint.parts().registry().registerFromTask(spec, proof);
        switch (o.kind()) {
            case REGISTERED, ALREADY_REGISTERED -> ok(o.message());
            case MISSING_JARS -> refuse(Refusal.MISSING_JARS, o.message());
            case REFUSED -> refuse(o.refusal().orElseThrow(), o.message());
            default -> throw new IllegalStateException("unexpected outcome " + o.kind());
        }
    }

    private void registerMapOutput(DataInputStream body) throws IOException {
        MapOutput output = new MapOutput(body.readUTF(), body.readUTF(), body.readInt());
        byte[] proof = LocalWire.readBytes(body);
        if (!authorised(output.jobId())) {
            return;
        }
        MapOutputOutcome o = endpoint.parts().registry().registerMapOutput(new MapOutputRegistration(output, proof));
        if (o.kind() == MapOutputOutcome.Kind.REFUSED) {
            refuse(o.refusal().orElseThrow(), o.message());
        } else {
            ok(o.message());
        }
    }

    /** PUT_JAR then its JAR_PIECE frames, streamed to the cache's temporary file; never the whole jar in memory. */
    private void putJar(DataInputStream body) throws IOException {
        String jobId = body.readUTF();
        byte[] hash = new byte[32];
        body.readFully(hash);
        JarDigest digest = JarDigest.fromHash(hash);
        long size = body.readLong();
        byte[] proof = LocalWire.readBytes(body);
        if (!authorised(jobId)) {
            return;
        }
        Verdict v = endpoint.parts().tokens().checkJar(jobId, digest, size, proof);
        if (!v.accepted()) {
            refuse(v.refusal().orElseThrow(), v.reason());
            return;
        }
        // The job's quota first: a job over it takes no upload slot and evicts no other job's jar.
        Verdict quota = endpoint.parts().tokens().chargeJar(jobId, digest, size);
        if (!quota.accepted()) {
            refuse(quota.refusal().orElseThrow(), quota.reason());
            return;
        }
        // Whatever goes wrong, the job's quota (and the cache's slot, closed with the upload) is given back before the
        // refusal goes out: the task may ask again at once, on another connection, and must not find it still held.
        JarCache.Upload upload;
        try {
            upload = endpoint.parts().jars().begin(digest, size);
        } catch (IOException e) {
            endpoint.parts().tokens().refundJar(jobId, size);
            refuse(Refusal.REFUSED, e.getMessage());
            return;
        } catch (RuntimeException e) {
            endpoint.parts().tokens().refundJar(jobId, size);
            throw e;
        }
        boolean stored = false;
        IOException failed = null;
        try (upload) {
            receivePieces(upload);
            stored = true;
        } catch (LocalWire.BadFrameException | SocketTimeoutException | ClosedChannelException e) {
            throw e;
        } catch (IOException e) {
            failed = e;
        } finally {
            if (!stored) {
                endpoint.parts().tokens().refundJar(jobId, size);
            }
        }
        if (failed != null) {
            // An EOFException from a client gone mid-piece has no message: say what happened rather than nothing.
            refuse(Refusal.REFUSED, failed.getMessage() != null ? failed.getMessage() : "jar " + digest
                    + " not stored: its upload ended early (" + failed.getClass().getSimpleName() + ")");
            return;
        }
        ok("jar " + digest + " cached");
    }

    /**
     * The JAR_PIECE frames of an accepted upload. Each must start within the frame timeout and carry bytes, and the
     * whole jar must arrive within a frame timeout per full piece (and one more): an upload holds one of the cache's
     * few slots, so a trickle of tiny pieces must not hold it for ever.
     */
    private void receivePieces(JarCache.Upload upload) throws IOException {
        ok("send jar " + upload.digest());
        long timeoutMs = endpoint.limits().frameTimeoutMs();
        long pieces = (upload.remaining() + LocalWire.JAR_PIECE_BYTES - 1) / LocalWire.JAR_PIECE_BYTES;
        long deadline = System.nanoTime() + (pieces + 1) * timeoutMs * 1_000_000L;
        String late = "jar " + upload.digest() + " not complete within " + (pieces + 1) * timeoutMs + " ms";
        while (upload.remaining() > 0) {
            long leftMs = (deadline - System.nanoTime()) / 1_000_000L;
            if (leftMs <= 0) {
                throw new LocalWire.BadFrameException(late);
            }
            channel.readDeadline(Math.min(timeoutMs, leftMs));
            LocalWire.Frame piece;
            try {
                piece = LocalWire.read(in, t -> t == LocalWire.JAR_PIECE ? LocalWire.JAR_PIECE_BYTES : -1);
            } catch (SocketTimeoutException e) {
                if (leftMs < timeoutMs) {
                    throw new LocalWire.BadFrameException(late);
                }
                throw e;
            }
            if (piece == null) {
                throw new ClosedChannelException();
            }
            if (piece.body().length == 0) {
                throw new LocalWire.BadFrameException("an empty jar piece for jar " + upload.digest());
            }
            upload.write(piece.body(), 0, piece.body().length);
        }
        channel.noReadDeadline();
        upload.finish();
    }

    private void issueNonce() throws IOException {
        nonce = new byte[LocalWire.NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        LocalWire.write(out, LocalWire.NONCE_IS, nonce, nonce.length);
    }

    private void startShuffle(DataInputStream body) throws IOException {
        byte[] fresh = nonce;
        nonce = null;
        String jobId = body.readUTF();
        // Before anything the request sizes: a user who may not act for the job makes the daemon hold nothing.
        if (!authorised(jobId)) {
            return;
        }
        int partition = body.readInt();
        int attempt = body.readInt();
        int modeCode = body.readUnsignedByte();
        int treesCode = body.readUnsignedByte();
        ShuffleMode mode = ShuffleCodes.mode(modeCode);
        TreeChoice trees = ShuffleCodes.trees(treesCode);
        int n = body.readInt();
        if (n < 0 || n > ShuffleSpec.MAX_MAP_ATTEMPTS) {
            throw new IllegalArgumentException("a shuffle of " + jobId + " listing " + n + " map attempts (at most "
                    + ShuffleSpec.MAX_MAP_ATTEMPTS + ")");
        }
        if (n > body.available() / 2) {
            throw new IllegalArgumentException("its " + body.available() + " bytes left cannot hold " + n
                    + " map attempts");
        }
        TreeSet<String> expected = new TreeSet<>();
        for (int i = 0; i < n; i++) {
            String mapAttempt = body.readUTF();
            MapOutput.checkMapAttempt(jobId, mapAttempt);
            expected.add(mapAttempt);
        }
        byte[] proof = LocalWire.readBytes(body);
        if (fresh == null) {
            refuse(Refusal.BAD_PROOF, "shuffle of " + jobId + " partition " + partition
                    + " refused: no fresh nonce (send NONCE first)");
            return;
        }
        Verdict v = endpoint.parts().tokens().checkShuffle(jobId, partition, attempt, modeCode, treesCode, fresh,
                expected, proof);
        if (!v.accepted()) {
            refuse(v.refusal().orElseThrow(), v.reason());
            return;
        }
        if (endpoint.parts().registry().lookup(jobId).isEmpty()) {
            refuse(Refusal.UNKNOWN_JOB, "unknown job " + jobId + ": its spec is not registered with this daemon");
            return;
        }
        ShuffleSpec spec = new ShuffleSpec(ShuffleKeys.jobKey(jobId), jobId, partition, attempt,
                endpoint.parts().coord(), mode, trees, expected);
        if (!endpoint.awaitLinks()) {
            refuse(Refusal.REFUSED, "daemon " + endpoint.parts().coord() + " cannot root a shuffle yet: its torus links"
                    + " are not all up after " + LocalEndpoint.LINKS_WAIT.toMillis() + " ms");
            return;
        }
        RootStream root;
        try {
            root = endpoint.parts().service().startShuffle(spec, new StartProof(fresh, proof));
        } catch (RuntimeException e) {
            refuse(Refusal.REFUSED, "shuffle " + spec.describe() + " could not start: " + e);
            return;
        }
        ok(endpoint.parts().coord().toString());
        new TaskStream(endpoint, channel, in, out, peer).copy(spec, root);
    }

    void ok(String message) throws IOException {
        byte[] b = LocalWire.body(o -> o.writeUTF(message));
        LocalWire.write(out, LocalWire.OK, b, b.length);
    }

    void refuse(Refusal why, String message) throws IOException {
        LOG.info("local request from user {} refused ({}): {}", peer, why, message);
        endpoint.parts().service().counters().refused(why);
        byte[] b = LocalWire.body(o -> {
            o.writeByte(why.code());
            o.writeUTF(message);
        });
        LocalWire.write(out, LocalWire.REFUSED, b, b.length);
    }

    private void tryRefuse(Refusal why, String message) {
        try {
            refuse(why, message);
        } catch (IOException e) {
            LOG.debug("could not tell user {} why: {}", peer, e.getMessage());
        }
    }
}
