package org.camdoop.shuffle.service.net;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.camdoop.shuffle.protocol.JarDigest;
import org.camdoop.torus.topology.Coord;

/**
 * The service messages of the job spec broadcast: a root sends a job's spec and jars along a spanning tree rooted at
 * itself (the origin), and every daemon forwards them unchanged to its own children in the same tree. Decoded through
 * {@link ShuffleMessages#decode}, which owns the type byte.
 *
 * <pre>
 * u8 type
 * 3 SPEC      utf jobId; i32 x, y, z (origin); i32 n; n bytes           -- n: the job spec, JobSpecCodec form
 * 4 JAR_PART  utf jobId; i32 x, y, z (origin); 32 bytes SHA-256 (jar); i64 total; i64 offset; i32 n; n bytes
 *                                                                        -- bytes [offset, offset + n) of the jar
 * 7 SPEC_REQUEST utf jobId   -- a daemon holding a START of jobId without its spec asks the START's root for it
 * </pre>
 * The answer to a SPEC_REQUEST is the job's SPEC and JAR_PARTs sent to the asking daemon alone, with the asking daemon
 * as their origin: a daemon never receives its own broadcast, so a message whose origin is the receiver is a repair,
 * and is not forwarded.
 * {@code utf} is Java's modified UTF-8 with a u16 length (DataOutput.writeUTF); integers are big-endian. A JAR_PART
 * must satisfy {@code 0 <= offset}, {@code 0 <= n}, {@code offset + n <= total <= }{@link #MAX_JAR_BYTES}; a jar of
 * length 0 travels as one part with n = 0. Every message fits one transport frame: parts are cut to
 * {@link #partBytes(int, String)}.
 */
public final class SpecMessages {

    public static final int SPEC = 3;
    public static final int JAR_PART = 4;
    public static final int SPEC_REQUEST = 7;
    /** Largest jar a daemon accepts over the torus (it is assembled in memory). */
    public static final long MAX_JAR_BYTES = 256L << 20;
    /** Largest part a root cuts, whatever the frame size (the transport's default frame is 64 KB). */
    public static final int MAX_PART_BYTES = 60 * 1024;
    private static final int DIGEST_BYTES = 32;

    private SpecMessages() {
    }

    /** The spec of job {@code jobId}, broadcast from {@code origin}. */
    public record Spec(String jobId, Coord origin, byte[] encodedSpec) implements ShuffleMessages.Message {
    }

    /** Bytes {@code [offset, offset + bytes.length)} of jar {@code digest} of {@code total} bytes. */
    public record JarPart(String jobId, Coord origin, JarDigest digest, long total, long offset, byte[] bytes)
            implements ShuffleMessages.Message {
    }

    /** The asking daemon (the frame's sender) lacks the spec or jars of {@code jobId}. */
    public record SpecRequest(String jobId) implements ShuffleMessages.Message {
    }

    public static byte[] specRequest(String jobId) {
        return ShuffleMessages.write(out -> {
            out.writeByte(SPEC_REQUEST);
            out.writeUTF(jobId);
        });
    }

    public static byte[] spec(String jobId, Coord origin, byte[] encodedSpec) {
        return ShuffleMessages.write(out -> {
            out.writeByte(SPEC);
            writeHeader(out, jobId, origin);
            out.writeInt(encodedSpec.length);
            out.write(encodedSpec);
        });
    }

    public static byte[] jarPart(String jobId, Coord origin, JarDigest digest, long total, long offset, byte[] jar,
            int from, int length) {
        return ShuffleMessages.write(out -> {
            out.writeByte(JAR_PART);
            writeHeader(out, jobId, origin);
            out.write(HexFormat.of().parseHex(digest.hex()));
            out.writeLong(total);
            out.writeLong(offset);
            out.writeInt(length);
            out.write(jar, from, length);
        });
    }

    /** The largest part of a jar of job {@code jobId} whose JAR_PART fits a payload of {@code payloadLimit} bytes. */
    public static int partBytes(int payloadLimit, String jobId) {
        int header = 1 + 2 + jobId.getBytes(StandardCharsets.UTF_8).length + 12 + DIGEST_BYTES + 8 + 8 + 4;
        int room = payloadLimit - header;
        if (room <= 0) {
            throw new IllegalArgumentException("a service payload of " + payloadLimit + " bytes cannot carry a jar part");
        }
        return Math.min(room, MAX_PART_BYTES);
    }

    private static void writeHeader(DataOutputStream out, String jobId, Coord origin) throws IOException {
        out.writeUTF(jobId);
        out.writeInt(origin.x());
        out.writeInt(origin.y());
        out.writeInt(origin.z());
    }

    static Spec decodeSpec(DataInputStream in) throws IOException {
        String jobId = in.readUTF();
        Coord origin = new Coord(in.readInt(), in.readInt(), in.readInt());
        return new Spec(jobId, origin, readBytes(in, in.readInt(), Integer.MAX_VALUE, "job spec"));
    }

    static SpecRequest decodeSpecRequest(DataInputStream in) throws IOException {
        return new SpecRequest(in.readUTF());
    }

    static JarPart decodeJarPart(DataInputStream in) throws IOException {
        String jobId = in.readUTF();
        Coord origin = new Coord(in.readInt(), in.readInt(), in.readInt());
        byte[] digest = new byte[DIGEST_BYTES];
        in.readFully(digest);
        long total = in.readLong();
        long offset = in.readLong();
        int n = in.readInt();
        if (total < 0 || total > MAX_JAR_BYTES) {
            throw new IllegalArgumentException("jar part of a jar of " + total + " bytes (limit " + MAX_JAR_BYTES + ")");
        }
        if (offset < 0 || n < 0 || offset + n > total) {
            throw new IllegalArgumentException("jar part [" + offset + ", " + offset + " + " + n
                    + ") outside a jar of " + total + " bytes");
        }
        return new JarPart(jobId, origin, new JarDigest(HexFormat.of().formatHex(digest)), total, offset,
                readBytes(in, n, MAX_PART_BYTES, "jar part"));
    }

    private static byte[] readBytes(DataInputStream in, int n, int limit, String what) throws IOException {
        if (n < 0 || n > limit || n > in.available()) {
            throw new IllegalArgumentException(what + " claims " + n + " bytes, " + in.available() + " follow");
        }
        byte[] b = new byte[n];
        in.readFully(b);
        return b;
    }
}
