package org.camdoop.shuffle.protocol;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What a stream's end says: which map attempts its records include (for the root's exactly-once check) and what the
 * subtree below did (for the job's counters).
 *
 * <p>Encoding (big-endian, {@link DataOutputStream}): {@code u8 version=1; utf source; i32 n; n x utf attempt;
 * i64 recordsCombined; i64 linkBytes}.
 *
 * @param attempts        the map attempts included, labelled with the stream they came on
 * @param recordsCombined records the subtree's combiners removed (records in minus records out, summed)
 * @param linkBytes       bytes the subtree sent over links between distinct servers
 */
public record EndOfStream(MapAttemptSummary attempts, long recordsCombined, long linkBytes) {

    private static final int VERSION = 1;
    private static final int MAX_ATTEMPTS = 1 << 22;

    public byte[] encode() {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeByte(VERSION);
            out.writeUTF(attempts.source());
            out.writeInt(attempts.attempts().size());
            for (String a : attempts.attempts()) {
                out.writeUTF(a);
            }
            out.writeLong(recordsCombined);
            out.writeLong(linkBytes);
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Decodes an end-of-stream payload.
     *
     * @throws IllegalArgumentException naming what is wrong with the bytes
     */
    public static EndOfStream decode(byte[] payload) {
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(payload))) {
            int version = in.readUnsignedByte();
            if (version != VERSION) {
                throw new IllegalArgumentException("end-of-stream version " + version + ", expected " + VERSION);
            }
            String source = in.readUTF();
            int n = in.readInt();
            if (n < 0 || n > MAX_ATTEMPTS) {
                throw new IllegalArgumentException("end-of-stream lists " + n + " map attempts");
            }
            List<String> attempts = new ArrayList<>(Math.min(n, 1024));
            for (int i = 0; i < n; i++) {
                attempts.add(in.readUTF());
            }
            long combined = in.readLong();
            long linkBytes = in.readLong();
            if (in.read() != -1) {
                throw new IllegalArgumentException("end-of-stream has trailing bytes");
            }
            return new EndOfStream(MapAttemptSummary.of(source, attempts), combined, linkBytes);
        } catch (EOFException e) {
            throw new IllegalArgumentException("end-of-stream payload truncated (" + payload.length + " bytes)");
        } catch (IOException e) {
            throw new IllegalArgumentException("malformed end-of-stream payload: " + e.getMessage());
        }
    }
}
