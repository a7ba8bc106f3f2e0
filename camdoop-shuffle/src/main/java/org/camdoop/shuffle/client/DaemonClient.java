package org.camdoop.shuffle.client;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.SortedSet;
import java.util.function.UnaryOperator;
import org.camdoop.shuffle.protocol.DaemonRefusedException;
import org.camdoop.shuffle.protocol.DeadlineChannel;
import org.camdoop.shuffle.protocol.EndOfStream;
import org.camdoop.shuffle.protocol.JarDigest;
import org.camdoop.shuffle.protocol.JobSpec;
import org.camdoop.shuffle.protocol.JobSpecCodec;
import org.camdoop.shuffle.protocol.LocalWire;
import org.camdoop.shuffle.protocol.MapOutput;
import org.camdoop.shuffle.protocol.MapOutputRegistration;
import org.camdoop.shuffle.protocol.Refusal;
import org.camdoop.shuffle.protocol.ShuffleCodes;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.shuffle.protocol.StreamItem;
import org.camdoop.shuffle.protocol.UnixPeers;
import org.camdoop.torus.trees.TreeChoice;

/**
 * A task's blocking connection to its local daemon ({@link LocalWire}) over a Unix domain socket, plain java.nio (task
 * JVMs carry Hadoop's Netty, not ours). Before sending anything it checks that the socket file and the process serving
 * it (SO_PEERCRED) belong to the daemon's user, so a squatter on a dead daemon's socket learns nothing. Requests are
 * answered in order; a refusal throws {@link DaemonRefusedException} with the daemon's exact message. Not thread-safe:
 * one task thread uses it.
 */
public final class DaemonClient implements AutoCloseable {
    private final DeadlineChannel channel;
    private final DataInputStream in;
    private final DataOutputStream out;
    /** Milliseconds {@link #next()} waits for an item; 0: forever. */
    private int streamTimeoutMs;

    private DaemonClient(DeadlineChannel channel) {
        this.channel = channel;
        this.in = new DataInputStream(new BufferedInputStream(channel.input(), 1 << 16));
        this.out = new DataOutputStream(new BufferedOutputStream(channel.output(), 1 << 16));
    }

    /**
     * Connects to the daemon at {@code address} after checking who owns its socket, then checks who serves it.
     *
     * @throws IOException naming the socket and both users when either check fails (nothing was sent)
     */
    public static DaemonClient connect(DaemonAddress address) throws IOException {
        java.nio.file.Path socket = address.socket();
        BasicFileAttributes attrs;
        try {
            attrs = Files.readAttributes(socket, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            throw new IOException("cannot reach the Camdoop daemon at " + socket + ": " + e.getMessage(), e);
        }
        if (!attrs.isOther()) {
            throw new IOException("the Camdoop daemon socket " + socket + " is not a socket: refusing to connect");
        }
        String owner = UnixPeers.ownerOf(socket);
        if (!owner.equals(address.daemonUser())) {
            throw new IOException("the Camdoop daemon socket " + socket + " is owned by " + owner + ", not the daemon's"
                    + " user " + address.daemonUser() + ": refusing to connect");
        }
        SocketChannel ch = SocketChannel.open(java.net.StandardProtocolFamily.UNIX);
        boolean ok = false;
        try {
            try {
                ch.connect(UnixDomainSocketAddress.of(socket));
            } catch (IOException e) {
                throw new IOException("cannot reach the Camdoop daemon at " + socket + ": " + e.getMessage(), e);
            }
            String server = UnixPeers.peerUser(ch);
            if (!server.equals(address.daemonUser())) {
                throw new IOException("the process serving the Camdoop daemon socket " + socket + " runs as " + server
                        + ", not the daemon's user " + address.daemonUser() + ": refusing to talk to it");
            }
            DaemonClient client = new DaemonClient(DeadlineChannel.of(ch, System::nanoTime));
            ok = true;
            return client;
        } finally {
            if (!ok) {
                ch.close();
            }
        }
    }

    /** Registers the job's spec with its proof ({@code JobTokenProof.forSpec}). */
    public String registerJob(JobSpec spec, byte[] proof) throws IOException {
        return call(LocalWire.REGISTER_JOB, LocalWire.body(o -> {
            LocalWire.writeBytes(o, JobSpecCodec.encode(spec));
            LocalWire.writeBytes(o, proof);
        }));
    }

    /**
     * Sends a jar of job {@code jobId} the daemon reported missing, in pieces of at most
     * {@link LocalWire#JAR_PIECE_BYTES}; {@code proof} is {@code JobTokenProof.forJar(password, jobId, digest, size)}.
     */
    public String putJar(String jobId, JarDigest digest, long size, byte[] proof, InputStream jar) throws IOException {
        call(LocalWire.PUT_JAR, LocalWire.body(o -> {
            o.writeUTF(jobId);
            o.write(java.util.HexFormat.of().parseHex(digest.hex()));
            o.writeLong(size);
            LocalWire.writeBytes(o, proof);
        }));
        byte[] piece = new byte[(int) Math.min(LocalWire.JAR_PIECE_BYTES, Math.max(1, size))];
        long left = size;
        while (left > 0) {
            int n = jar.readNBytes(piece, 0, (int) Math.min(piece.length, left));
            if (n <= 0) {
                throw new IOException("jar " + digest + " ended " + left + " bytes early");
            }
            LocalWire.write(out, LocalWire.JAR_PIECE, piece, n);
            left -= n;
        }
        return answer();
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

    /** A fresh nonce from the daemon, good for the next {@link #startShuffle} on this connection. */
    public byte[] nonce() throws IOException {
        LocalWire.write(out, LocalWire.NONCE, new byte[0], 0);
        LocalWire.Frame reply = reply();
        if (reply.type() != LocalWire.NONCE_IS || reply.body().length != LocalWire.NONCE_BYTES) {
            throw new IOException("unexpected reply type " + reply.type() + " to NONCE");
        }
        return reply.body();
    }

    /**
     * Asks the daemon to be the root of this reduce attempt's shuffle: fetches a nonce, has {@code proofOfNonce} make
     * the proof over it ({@code JobTokenProof.forShuffle}), and sends the request. On success the connection carries
     * the stream: read it with {@link #next()} until End or Failed.
     *
     * @return the root's coordinate, as the daemon names it
     */
    public String startShuffle(String jobId, int partition, int attempt, ShuffleMode mode, TreeChoice trees,
            SortedSet<String> expectedAttempts, UnaryOperator<byte[]> proofOfNonce) throws IOException {
        byte[] proof = proofOfNonce.apply(nonce());
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
    public void streamTimeout(int millis) {
        streamTimeoutMs = millis;
    }

    /**
     * The next item of a started shuffle, blocking: a Chunk, or the End or Failed that closes it, or a Paused that
     * waits for {@link #resumeShuffle}.
     *
     * @throws IOException if the daemon went away, sent something else, or nothing came within the stream timeout
     */
    public StreamItem next() throws IOException {
        LocalWire.Frame f;
        if (streamTimeoutMs > 0) {
            channel.readDeadline(streamTimeoutMs);
        }
        try {
            f = LocalWire.read(in, LocalWire::replyCap);
        } catch (SocketTimeoutException e) {
            throw new IOException("nothing came from the Camdoop daemon for " + streamTimeoutMs + " ms");
        } finally {
            channel.noReadDeadline();
        }
        if (f == null) {
            throw new IOException("the Camdoop daemon closed the connection in the middle of the stream");
        }
        return switch (f.type()) {
            case LocalWire.CHUNK -> new StreamItem.Chunk(f.body(), f.body().length);
            case LocalWire.END -> new StreamItem.End(EndOfStream.decode(f.body()));
            case LocalWire.FAILED -> new StreamItem.Failed(f.in().readUTF());
            case LocalWire.PAUSED -> paused(f.in());
            default -> throw new IOException("unexpected frame type " + f.type() + " in a shuffle stream");
        };
    }

    private static StreamItem.Paused paused(DataInputStream in) throws IOException {
        byte[] nonce = new byte[LocalWire.NONCE_BYTES];
        in.readFully(nonce);
        long waitMs = in.readLong();
        int n = in.readInt();
        if (n < 0 || n > in.available() / 2) {
            throw new IOException("a PAUSED frame naming " + n + " lost map attempts in " + in.available() + " bytes");
        }
        java.util.List<String> lost = new java.util.ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            lost.add(in.readUTF());
        }
        return new StreamItem.Paused(lost, nonce, waitMs);
    }

    /**
     * Resumes a shuffle that paused ({@link StreamItem.Paused}): {@code replacements} maps each lost map attempt to
     * the new attempt of its map, {@code proof} is {@code JobTokenProof.forShuffle} over the pause's nonce and the new
     * set of map attempts. The stream then goes on: read it with {@link #next()}.
     */
    public void resumeShuffle(java.util.SortedMap<String, String> replacements, byte[] proof) throws IOException {
        byte[] body = LocalWire.body(o -> {
            o.writeInt(replacements.size());
            for (java.util.Map.Entry<String, String> e : replacements.entrySet()) {
                o.writeUTF(e.getKey());
                o.writeUTF(e.getValue());
            }
            LocalWire.writeBytes(o, proof);
        });
        LocalWire.write(out, LocalWire.RESUME_SHUFFLE, body, body.length);
    }

    private String call(int type, byte[] body) throws IOException {
        LocalWire.write(out, type, body, body.length);
        return answer();
    }

    private LocalWire.Frame reply() throws IOException {
        LocalWire.Frame reply = LocalWire.read(in, LocalWire::replyCap);
        if (reply == null) {
            throw new IOException("the Camdoop daemon closed the connection without answering");
        }
        return reply;
    }

    private String answer() throws IOException {
        LocalWire.Frame reply = reply();
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
        channel.close();
    }
}
