package org.camdoop.shuffle.endpoint;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.channels.ClosedChannelException;
import java.security.SecureRandom;
import org.camdoop.shuffle.jobs.Verdict;
import org.camdoop.shuffle.protocol.DeadlineChannel;
import org.camdoop.shuffle.protocol.LocalWire;
import org.camdoop.shuffle.protocol.ShuffleCodes;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.protocol.StreamItem;
import org.camdoop.shuffle.service.CamdoopService;
import org.camdoop.shuffle.service.RootStream;
import org.camdoop.shuffle.service.net.StartProof;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A started shuffle on its reduce task's local connection: copies the root's stream to the task as CHUNK frames, then
 * END or FAILED; where the shuffle paused for lost map outputs, tells the task (PAUSED) and resumes it with the
 * task's RESUME_SHUFFLE ({@link LocalWire}). Used by the connection's thread alone, for one shuffle.
 */
final class TaskStream {
    private static final Logger LOG = LoggerFactory.getLogger(TaskStream.class);
    private static final SecureRandom RANDOM = new SecureRandom();
    /** How often a paused shuffle's connection looks whether the shuffle failed while it waits for the task. */
    private static final long FAILURE_POLL_MS = 1000;

    private final LocalEndpoint endpoint;
    private final DeadlineChannel channel;
    private final DataInputStream in;
    private final DataOutputStream out;
    private final String peer;

    TaskStream(LocalEndpoint endpoint, DeadlineChannel channel, DataInputStream in, DataOutputStream out,
            String peer) {
        this.endpoint = endpoint;
        this.channel = channel;
        this.in = in;
        this.out = out;
        this.peer = peer;
    }

    /** Copies the root stream to the task; a task that goes away aborts the shuffle everywhere. */
    void copy(ShuffleSpec spec, RootStream root) throws IOException {
        CamdoopService service = endpoint.parts().service();
        String stopping = "daemon " + endpoint.parts().coord() + " stopping";
        // An authorised reduce task with a proof: it reads its chunks as its reduce function gets through the keys,
        // which may leave them unread for as long as one key group takes.
        channel.noWriteStallLimit();
        try {
            while (true) {
                if (endpoint.closed()) {
                    service.abort(spec, stopping, true);
                    return;
                }
                StreamItem next = root.next(LocalEndpoint.POLL);
                if (next instanceof StreamItem.Chunk c) {
                    LocalWire.write(out, LocalWire.CHUNK, c.bytes(), c.length());
                } else if (next instanceof StreamItem.End e) {
                    byte[] b = e.end().encode();
                    LocalWire.write(out, LocalWire.END, b, b.length);
                    return;
                } else if (next instanceof StreamItem.Failed f) {
                    writeFailed(f.reason());
                    return;
                } else if (next instanceof StreamItem.Paused p && !resumed(spec, root, p)) {
                    return;
                }
            }
        } catch (IOException e) {
            service.abort(spec, endpoint.closed() ? stopping : "reduce task went away: " + e.getMessage(), true);
            throw e;
        } catch (RuntimeException e) {
            // A resume that failed half-way must not leave a generation running that nobody reads.
            String reason = "daemon " + endpoint.parts().coord() + " failed serving the shuffle: " + e;
            service.abort(spec, reason, true);
            try {
                writeFailed(reason);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            service.abort(spec, stopping, true);
            throw new ClosedChannelException();
        } finally {
            channel.writeStallLimit(endpoint.limits().frameTimeoutMs());
        }
    }

    /**
     * Tells the task the shuffle paused for lost map outputs, and waits for its RESUME_SHUFFLE (up to the pause
     * timeout): new attempts of those maps with a proof over the new set. Whatever else comes, or nothing, fails the
     * shuffle with the reason (in a FAILED frame, and to every daemon).
     *
     * @return whether the shuffle goes on
     */
    private boolean resumed(ShuffleSpec spec, RootStream root, StreamItem.Paused paused) throws IOException {
        byte[] fresh = new byte[LocalWire.NONCE_BYTES];
        RANDOM.nextBytes(fresh);
        long waitMs = endpoint.limits().pauseTimeoutMs();
        byte[] b = LocalWire.body(o -> {
            o.write(fresh);
            o.writeLong(waitMs);
            o.writeInt(paused.lost().size());
            for (String a : paused.lost()) {
                o.writeUTF(a);
            }
        });
        LocalWire.write(out, LocalWire.PAUSED, b, b.length);
        String refused;
        try {
            LocalWire.Frame f = awaitResume(root, waitMs);
            if (f == null) {
                return false; // the shuffle failed meanwhile; the task was told why
            }
            refused = f.type() == LocalWire.RESUME_SHUFFLE ? resume(spec, paused, fresh, f)
                    : "request type " + f.type() + " where RESUME_SHUFFLE was due";
        } catch (LocalWire.BadFrameException | SocketTimeoutException e) {
            refused = e.getMessage();
        }
        if (refused == null) {
            return true;
        }
        String reason = "shuffle " + spec.describe() + " lost the outputs of map attempts " + paused.lost()
                + " and cannot resume: " + refused;
        LOG.warn("local connection from user {}: {}", peer, reason);
        endpoint.parts().service().abort(spec, reason, true);
        writeFailed(reason);
        return false;
    }

    /**
     * The task's next frame, read within the pause timeout and a frame timeout more (the task reads PAUSED only after
     * the chunks before it, and reports the loss before it waits), looking every {@link #FAILURE_POLL_MS} ms whether
     * the paused shuffle failed meanwhile (this daemon left the torus, the shuffle was aborted): then the task is
     * told, and null is returned.
     *
     * @throws SocketTimeoutException naming what did not come in time
     */
    private LocalWire.Frame awaitResume(RootStream root, long waitMs) throws IOException {
        long frameMs = endpoint.limits().frameTimeoutMs();
        long deadline = System.nanoTime() + (waitMs + frameMs) * 1_000_000L;
        try {
            while (true) {
                long leftMs = (deadline - System.nanoTime()) / 1_000_000L;
                if (leftMs <= 0) {
                    throw new SocketTimeoutException("no RESUME_SHUFFLE within " + waitMs
                            + " ms, the daemon's shuffle pause timeout");
                }
                boolean[] began = {false};
                channel.readDeadline(Math.min(leftMs, FAILURE_POLL_MS));
                try {
                    LocalWire.Frame f = LocalWire.read(in, LocalWire::requestCap, () -> {
                        began[0] = true;
                        channel.readDeadline(frameMs);
                    });
                    if (f == null) {
                        throw new ClosedChannelException();
                    }
                    return f;
                } catch (SocketTimeoutException e) {
                    if (began[0]) {
                        throw new SocketTimeoutException("a request begun but not complete within " + frameMs + " ms");
                    }
                }
                if (root.next(java.time.Duration.ZERO) instanceof StreamItem.Failed failed) {
                    writeFailed(failed.reason());
                    return null;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClosedChannelException();
        } finally {
            channel.noReadDeadline();
        }
    }

    private void writeFailed(String reason) throws IOException {
        byte[] failed = LocalWire.body(o -> o.writeUTF(reason));
        LocalWire.write(out, LocalWire.FAILED, failed, failed.length);
    }

    /** Checks a RESUME_SHUFFLE and resumes the shuffle with it; returns null, or why not. */
    private String resume(ShuffleSpec spec, StreamItem.Paused paused, byte[] nonce, LocalWire.Frame f)
            throws IOException {
        ResumeRequest request;
        try {
            request = ResumeRequest.read(f.in(), spec.jobId(), paused.lost());
        } catch (IOException | IllegalArgumentException e) { // the body was read whole: any IOException is its own
            return "malformed RESUME_SHUFFLE: " + (e.getMessage() != null ? e.getMessage() : e.toString());
        }
        CamdoopService service = endpoint.parts().service();
        ShuffleSpec now = service.rootedNow(spec).orElse(null);
        if (now == null) {
            return "it no longer runs here";
        }
        Verdict v = endpoint.parts().tokens().checkShuffle(spec.jobId(), spec.partition(), spec.attempt(),
                ShuffleCodes.code(spec.mode()), ShuffleCodes.code(spec.trees()), nonce,
                now.attemptsReplacing(request.replacements()), request.proof());
        if (!v.accepted()) {
            return v.reason();
        }
        return service.resume(spec, request.replacements(), new StartProof(nonce, request.proof()));
    }
}
