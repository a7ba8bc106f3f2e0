package org.camdoop.shuffle.protocol;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;

/**
 * Framing of the local protocol (task to its own daemon over loopback TCP). Every message, in both directions, is one
 * frame; all integers big-endian, strings in {@link DataOutputStream#writeUTF} form:
 *
 * <pre>
 * frame:            i32 length (of type + body, 1 .. MAX_FRAME); u8 type; body
 *
 * requests (task to daemon), each answered by one reply frame unless noted
 *  1 REGISTER_JOB        i32 n; n bytes JobSpecCodec spec; i32 m; m bytes proof (JobTokenProof.forSpec)
 *  2 REGISTER_MAP_OUTPUT utf jobId; utf attemptId; i32 partitions; i32 m; m bytes proof
 *                        (JobTokenProof.forMapOutput). No path: the daemon derives the files (MapOutputLocator).
 *  3 PUT_JAR             i32 n; n bytes jar (the daemon checks nothing but its digest; the cache is bounded)
 *  4 CLAIM_TOKEN         utf jobId; i32 n; n bytes job token password (standalone trust on first use)
 *  5 START_SHUFFLE       utf jobId; i32 partition; i32 attempt; u8 mode (0 camdoop, 1 noagg, 2 direct);
 *                        u8 trees (0 six, 1 shortest); i32 n; n x utf map attempt; i32 m; m bytes proof
 *                        (JobTokenProof.forShuffle). Answered by OK (utf: the root's coordinate), then any number of
 *                        CHUNK frames, then exactly one END or FAILED; or by one REFUSED.
 *
 * replies (daemon to task)
 * 16 OK                  utf message
 * 17 REFUSED             u8 Refusal code; utf exact message
 * 18 CHUNK               the rest of the frame: whole IFile-layout records (vint keyLen, vint valLen, key, value)
 * 19 END                 the rest of the frame: EndOfStream encoding
 * 20 FAILED              utf reason
 * </pre>
 *
 * A stream is back-pressured by TCP alone: the daemon writes each chunk blocking. The connection stays open for further
 * requests after a reply (after END or FAILED for a shuffle). Stateless helpers.
 */
public final class LocalWire {
    public static final int REGISTER_JOB = 1;
    public static final int REGISTER_MAP_OUTPUT = 2;
    public static final int PUT_JAR = 3;
    public static final int CLAIM_TOKEN = 4;
    public static final int START_SHUFFLE = 5;
    public static final int OK = 16;
    public static final int REFUSED = 17;
    public static final int CHUNK = 18;
    public static final int END = 19;
    public static final int FAILED = 20;

    /** Largest frame accepted: a jar or a chunk, with room to spare. */
    public static final int MAX_FRAME = 256 << 20;

    private LocalWire() {}

    /** One frame as read: its type and body. */
    public record Frame(int type, byte[] body) {
        /** A reader over the body. */
        public DataInputStream in() {
            return new DataInputStream(new java.io.ByteArrayInputStream(body));
        }
    }

    /** Reads one frame; {@code null} at a clean end of stream before the frame. */
    public static Frame read(DataInputStream in) throws IOException {
        int length;
        try {
            length = in.readInt();
        } catch (EOFException e) {
            return null;
        }
        if (length < 1 || length > MAX_FRAME) {
            throw new IOException("bad local frame length " + length + " (1.." + MAX_FRAME + ")");
        }
        int type = in.readUnsignedByte();
        byte[] body = new byte[length - 1];
        in.readFully(body);
        return new Frame(type, body);
    }

    /** Writes one frame and flushes it. */
    public static void write(DataOutputStream out, int type, byte[] body, int length) throws IOException {
        out.writeInt(length + 1);
        out.writeByte(type);
        out.write(body, 0, length);
        out.flush();
    }

    /** Builds a body with {@code writer}. */
    public static byte[] body(BodyWriter writer) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            writer.write(out);
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Writes a body. */
    @FunctionalInterface
    public interface BodyWriter {
        void write(DataOutputStream out) throws IOException;
    }

    public static void writeBytes(DataOutputStream out, byte[] b) throws IOException {
        out.writeInt(b.length);
        out.write(b);
    }

    public static byte[] readBytes(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > in.available()) {
            throw new IOException("bad byte-string length " + n);
        }
        byte[] b = new byte[n];
        in.readFully(b);
        return b;
    }
}
