package org.camdoop.shuffle.client;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.SortedSet;
import org.camdoop.shuffle.protocol.DaemonRefusedException;
import org.camdoop.shuffle.protocol.EndOfStream;
import org.camdoop.shuffle.protocol.JobSpec;
import org.camdoop.shuffle.protocol.JobSpecCodec;
import org.camdoop.shuffle.protocol.LocalWire;
import org.camdoop.shuffle.protocol.MapOutput;
import org.camdoop.shuffle.protocol.MapOutputRegistration;
import org.camdoop.shuffle.protocol.Refusal;
import org.camdoop.shuffle.protocol.ShuffleCodes;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.shuffle.protocol.StreamItem;
import org.camdoop.torus.trees.TreeChoice;

/**
 * A task's blocking connection to its local daemon ({@link LocalWire}): plain java.io sockets, so it runs in any task
 * JVM whatever Netty that JVM carries. Requests are answered in order; a refusal throws
 * {@link DaemonRefusedException} with the daemon's exact message. Not thread-safe: one task thread uses it.
 */
public final class DaemonClient implements AutoCloseable {
    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;

    private DaemonClient(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 1 << 16));
        this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), 1 << 16));
    }

    /** Connects to the daemon at {@code address}, giving up after {@code connectTimeoutMs}. */
    public static DaemonClient connect(InetSocketAddress address, int connectTimeoutMs) throws IOException {
        Socket s = new Socket();
        try {
            s.connect(address, connectTimeoutMs);
            s.setTcpNoDelay(true);
            return new DaemonClient(s);
        } catch (IOException e) {
            s.close();
            throw new IOException("cannot reach the Camdoop daemon at " + address + ": " + e.getMessage(), e);
        }
    }

    /** Standalone daemons: presents the job token (trust on first use; see docs/security.md). */
    public String claimToken(String jobId, byte[] password) throws IOException {
        return call(LocalWire.CLAIM_TOKEN, LocalWire.body(o -> {
            o.writeUTF(jobId);
            LocalWire.writeBytes(o, password);
        }));
    }

    /** Registers the job's spec with its proof ({@code JobTokenProof.forSpec}). */
    public String registerJob(JobSpec spec, byte[] proof) throws IOException {
        return call(LocalWire.REGISTER_JOB, LocalWire.body(o -> {
            LocalWire.writeBytes(o, JobSpecCodec.encode(spec));
            LocalWire.writeBytes(o, proof);
        }));
    }

    /** Sends a jar the daemon reported missing. */
    public String putJar(byte[] jar) throws IOException {
        return call(LocalWire.PUT_JAR, LocalWire.body(o -> LocalWire.writeBytes(o, jar)));
    }

    /** Registers a map attempt's final output. */
    public String registerMapOutput(MapOutputRegistration registration) throws IOException {
        MapOutput m = registration.output();
        return call(LocalWire.REGISTER_MAP_OUTPUT, LocalWire.body(o -> {
            o.writeUTF(m.jobId());
            o.writeUTF(m.attemptId());
            o.writeInt(m.partitions());
            LocalWire.writeBytes(o, registration.proof());
        }));
    }

    /**
     * Asks the daemon to be the root of this reduce attempt's shuffle. On success the connection carries the stream:
     * read it with {@link #next()} until End or Failed.
     *
     * @return the root's coordinate, as the daemon names it
     */
    public String startShuffle(String jobId, int partition, int attempt, ShuffleMode mode, TreeChoice trees,
            SortedSet<String> expectedAttempts, byte[] proof) throws IOException {
        return call(LocalWire.START_SHUFFLE, LocalWire.body(o -> {
            o.writeUTF(jobId);
            o.writeInt(partition);
            o.writeInt(attempt);
            o.writeByte(ShuffleCodes.code(mode));
            o.writeByte(ShuffleCodes.code(trees));
            o.writeInt(expectedAttempts.size());
            for (String a : expectedAttempts) {
                o.writeUTF(a);
            }
            LocalWire.writeBytes(o, proof);
        }));
    }

    /** How long {@link #next()} waits for the next item before it gives up (0: forever). */
    public void streamTimeout(int millis) throws IOException {
        socket.setSoTimeout(millis);
    }

    /**
     * The next item of a started shuffle, blocking: a Chunk, or the End or Failed that closes it.
     *
     * @throws IOException if the daemon went away, sent something else, or nothing came within the stream timeout
     */
    public StreamItem next() throws IOException {
        LocalWire.Frame f;
        try {
            f = LocalWire.read(in);
        } catch (java.net.SocketTimeoutException e) {
            throw new IOException("nothing came from the Camdoop daemon for " + socket.getSoTimeout() + " ms");
        }
        if (f == null) {
            throw new IOException("the Camdoop daemon closed the connection in the middle of the stream");
        }
        return switch (f.type()) {
            case LocalWire.CHUNK -> new StreamItem.Chunk(f.body(), f.body().length);
            case LocalWire.END -> new StreamItem.End(EndOfStream.decode(f.body()));
            case LocalWire.FAILED -> new StreamItem.Failed(f.in().readUTF());
            default -> throw new IOException("unexpected frame type " + f.type() + " in a shuffle stream");
        };
    }

    private String call(int type, byte[] body) throws IOException {
        LocalWire.write(out, type, body, body.length);
        LocalWire.Frame reply = LocalWire.read(in);
        if (reply == null) {
            throw new IOException("the Camdoop daemon closed the connection without answering");
        }
        DataInputStream r = reply.in();
        return switch (reply.type()) {
            case LocalWire.OK -> r.readUTF();
            case LocalWire.REFUSED -> {
                Refusal why = Refusal.of(r.readUnsignedByte());
                throw new DaemonRefusedException(why, r.readUTF());
            }
            default -> throw new IOException("unexpected reply type " + reply.type());
        };
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
