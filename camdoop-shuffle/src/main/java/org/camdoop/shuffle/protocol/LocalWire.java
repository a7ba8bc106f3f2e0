package org.camdoop.shuffle.protocol;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * Framing of the local protocol (task to its own daemon over a Unix domain socket, both ends' uids checked with
 * SO_PEERCRED; see docs/local-protocol.md). Every message, in both directions, is one frame; all integers big-endian,
 * strings in {@link DataOutputStream#writeUTF} form. The reader checks the announced length against the cap of the
 * frame's type ({@link #requestCap}, {@link #REPLY_CAP}) <em>before</em> it allocates anything:
 *
 * <pre>
 * frame:            i32 length (of type + body, 1 .. 1 + cap(type)); u8 type; body
 *
 * requests (task to daemon), each answered by one reply frame unless noted                     body cap
 *  1 REGISTER_JOB        i32 n; n bytes JobSpecCodec spec; i32 m; m bytes proof (forSpec)         4 MiB
 *  2 REGISTER_MAP_OUTPUT utf jobId; utf attemptId; i32 partitions; i32 m; m bytes proof
 *                        (JobTokenProof.forMapOutput). No path: the daemon derives the files
 *                        (MapOutputLocator)                                                        64 KiB
 *  3 PUT_JAR             utf jobId; 32 bytes SHA-256 of the jar; i64 size; i32 m; m bytes proof
 *                        (JobTokenProof.forJar). Answered by OK (send the pieces) or REFUSED; after
 *                        OK the task sends JAR_PIECE frames totalling exactly size bytes, then the
 *                        daemon answers once more (OK: cached, or REFUSED)                          64 KiB
 *  4 JAR_PIECE           the rest of the frame: the next bytes of the jar                           1 MiB
 *  5 START_SHUFFLE       utf jobId; i32 partition; i32 attempt; u8 mode (0 camdoop, 1 noagg, 2 direct);
 *                        u8 trees (0 six, 1 shortest); i32 n; n x utf map attempt; i32 m; m bytes proof
 *                        (JobTokenProof.forShuffle, over the nonce of the last NONCE reply). Answered
 *                        by OK (utf: the root's coordinate), then any number of CHUNK frames, then
 *                        exactly one END or FAILED; or by one REFUSED.                            16 MiB
 *  6 NONCE               empty. Answered by NONCE_IS; the nonce is good for one START_SHUFFLE       0
 *  7 RESUME_SHUFFLE      i32 n; n x (utf lost map attempt; utf its replacement); i32 m; m bytes proof
 *                        (JobTokenProof.forShuffle over the PAUSED nonce and the new map attempts).
 *                        Only right after PAUSED, on the stream's connection; not answered by a reply
 *                        of its own: the stream goes on (CHUNK ..., then END, FAILED or PAUSED)   16 MiB
 *
 * replies (daemon to task)                                                              body cap REPLY_CAP
 * 16 OK                  utf message
 * 17 REFUSED             u8 Refusal code; utf exact message
 * 18 CHUNK               the rest of the frame: whole IFile-layout records (vint keyLen, vint valLen, key, value)
 * 19 END                 the rest of the frame: EndOfStream encoding
 * 20 FAILED              utf reason
 * 21 NONCE_IS            32 bytes: a fresh random nonce
 * 22 PAUSED              32 bytes nonce; i64 wait ms; i32 n; n x utf lost map attempt. In a stream:
 *                        the outputs of those attempts died with a server and the shuffle waits up
 *                        to the wait for RESUME_SHUFFLE (StreamItem.Paused); then it fails
 * </pre>
 *
 * Type 4 was CLAIM_TOKEN (the job's secret sent to the daemon) in version 1; it is gone: the secret never crosses
 * this channel. A stream is back-pressured by the socket alone: the daemon writes each chunk blocking. The connection
 * stays open for further requests after a reply (after END or FAILED for a shuffle). Stateless helpers.
 */
public final class LocalWire {
    public static final int REGISTER_JOB = 1;
    public static final int REGISTER_MAP_OUTPUT = 2;
    public static final int PUT_JAR = 3;
    public static final int JAR_PIECE = 4;
    public static final int START_SHUFFLE = 5;
    public static final int NONCE = 6;
    public static final int RESUME_SHUFFLE = 7;
    public static final int OK = 16;
    public static final int REFUSED = 17;
    public static final int CHUNK = 18;
    public static final int END = 19;
    public static final int FAILED = 20;
    public static final int NONCE_IS = 21;
    public static final int PAUSED = 22;

    /** Bytes of a nonce. */
    public static final int NONCE_BYTES = 32;
    /** Largest JAR_PIECE body: what the task sends at once and the daemon holds of a jar at once. */
    public static final int JAR_PIECE_BYTES = 1 << 20;
    /** Largest reply body a task accepts: a chunk of the root's stream, with room to spare (the daemon is trusted). */
    public static final int REPLY_CAP = 256 << 20;

    private LocalWire() {}

    /** The largest body of request {@code type}; -1 for a type that is not a request. */
    public static int requestCap(int type) {
        return switch (type) {
            case REGISTER_JOB -> 4 << 20;
            case REGISTER_MAP_OUTPUT, PUT_JAR -> 64 << 10;
            case JAR_PIECE -> JAR_PIECE_BYTES;
            case START_SHUFFLE, RESUME_SHUFFLE -> 16 << 20;
            case NONCE -> 0;
            default -> -1;
        };
    }

    /** The largest body of reply {@code type}; -1 for a type that is not a reply. */
    public static int replyCap(int type) {
        return type >= OK && type <= PAUSED ? REPLY_CAP : -1;
    }

    /** The cap of each frame type a reader accepts. */
    @FunctionalInterface
    public interface Caps {
        /** @return the largest body of {@code type}, or a negative value if the type is not accepted */
        int of(int type);
    }

    /** Notified when a frame's first byte arrived (a partial frame must then complete within its deadline). */
    @FunctionalInterface
    public interface FrameStarted {
        void started();
    }

    /** One frame as read: its type and body. */
    public record Frame(int type, byte[] body) {
        /** A reader over the body. */
        public DataInputStream in() {
            return new DataInputStream(new java.io.ByteArrayInputStream(body));
        }
    }

    /** A frame header that breaks the caps: the connection cannot be read further and is closed. */
    public static final class BadFrameException extends IOException {
        private static final long serialVersionUID = 1L;

        public BadFrameException(String message) {
            super(message);
        }
    }

    /** Reads one frame; {@code null} at a clean end of stream before the frame. */
    public static Frame read(DataInputStream in, Caps caps) throws IOException {
        return read(in, caps, () -> { });
    }

    /**
     * Reads one frame, checking its length against {@code caps} before allocating its body; {@code null} at a clean
     * end of stream before the frame.
     *
     * @throws BadFrameException for an unknown type or a length outside 1 .. 1 + cap(type)
     */
    public static Frame read(DataInputStream in, Caps caps, FrameStarted started) throws IOException {
        int first = in.read();
        if (first < 0) {
            return null;
        }
        started.started();
        int length = (first << 24) | (in.readUnsignedByte() << 16) | (in.readUnsignedByte() << 8)
                | in.readUnsignedByte();
        int type = in.readUnsignedByte();
        int cap = caps.of(type);
        if (cap < 0) {
            throw new BadFrameException("unknown local frame type " + type);
        }
        if (length < 1 || length - 1 > cap) {
            throw new BadFrameException("local frame of type " + type + " announces " + length
                    + " bytes; its limit is " + (cap + 1));
        }
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

    /**
     * Reads an i32-prefixed byte string from a frame body read whole.
     *
     * @throws IllegalArgumentException if the length is negative or more than what is left of the body
     */
    public static byte[] readBytes(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > in.available()) { // bodies are read whole first: available() is what is left of this one
            throw new IllegalArgumentException("a byte string of " + n + " bytes where " + in.available()
                    + " are left");
        }
        byte[] b = new byte[n];
        in.readFully(b);
        return b;
    }
}
