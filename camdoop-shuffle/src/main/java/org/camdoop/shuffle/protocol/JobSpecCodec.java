package org.camdoop.shuffle.protocol;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.io.DataOutputBuffer;

/**
 * The binary form of a {@link JobSpec}, as daemons send it over the torus. Big-endian, one canonical encoding per spec
 * (keys ascending), so equal specs have equal bytes and digests.
 *
 * <pre>
 * bytes        field
 * 1            version, 1
 * 4 + n        job id: int32 length n, then n bytes of UTF-8
 * 4            entry count e, 0..4096
 * e x (4+k,4+v) configuration entries: key then value, each int32 length + UTF-8; keys strictly ascending
 * 4            jar count j, 0..1024
 * j x 32       SHA-256 of each jar, class path order, no repeats
 * </pre>
 *
 * Decoding rejects anything else (unknown version, negative or oversized lengths, invalid UTF-8, unsorted or repeated
 * keys, keys outside the spec's subset, trailing bytes) with a {@link MalformedJobSpecException}. Stateless.
 */
public final class JobSpecCodec {
    public static final byte VERSION = 1;
    static final int MAX_ENTRIES = 4096;
    static final int MAX_JARS = 1024;
    static final int MAX_STRING_BYTES = 1 << 20;
    private static final int DIGEST_BYTES = 32;

    private JobSpecCodec() {}

    public static byte[] encode(JobSpec spec) {
        try {
            DataOutputBuffer out = new DataOutputBuffer();
            out.writeByte(VERSION);
            writeString(out, spec.jobId());
            out.writeInt(spec.conf().size());
            for (Map.Entry<String, String> e : spec.conf().entrySet()) {
                writeString(out, e.getKey());
                writeString(out, e.getValue());
            }
            out.writeInt(spec.jars().size());
            for (JarDigest d : spec.jars()) {
                out.write(HexFormat.of().parseHex(d.hex()));
            }
            return Arrays.copyOf(out.getData(), out.getLength());
        } catch (IOException e) {
            throw new UncheckedIOException("in-memory buffer cannot fail", e);
        }
    }

    private static void writeString(DataOutputBuffer out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        if (b.length > MAX_STRING_BYTES) {
            throw new IllegalArgumentException("job spec string longer than " + MAX_STRING_BYTES + " bytes");
        }
        out.writeInt(b.length);
        out.write(b);
    }

    public static JobSpec decode(byte[] bytes) throws MalformedJobSpecException {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        byte version = byteAt(in, "version");
        if (version != VERSION) {
            throw new MalformedJobSpecException("unknown version " + version + " (this daemon reads " + VERSION + ")");
        }
        String jobId = readString(in, "job id");
        int entries = count(in, "entry count", MAX_ENTRIES);
        Map<String, String> conf = new TreeMap<>();
        String previous = null;
        for (int i = 0; i < entries; i++) {
            String key = readString(in, "key " + i);
            if (previous != null && key.compareTo(previous) <= 0) {
                throw new MalformedJobSpecException("key '" + key + "' not after '" + previous + "'");
            }
            conf.put(key, readString(in, "value of " + key));
            previous = key;
        }
        int jarCount = count(in, "jar count", MAX_JARS);
        List<JarDigest> jars = new ArrayList<>();
        Set<JarDigest> seen = new HashSet<>();
        for (int i = 0; i < jarCount; i++) {
            need(in, DIGEST_BYTES, "jar digest " + i);
            byte[] d = new byte[DIGEST_BYTES];
            in.get(d);
            JarDigest digest = JarDigest.fromHash(d);
            if (!seen.add(digest)) {
                throw new MalformedJobSpecException("jar " + digest + " listed twice");
            }
            jars.add(digest);
        }
        if (in.hasRemaining()) {
            throw new MalformedJobSpecException(in.remaining() + " trailing bytes");
        }
        try {
            return new JobSpec(jobId, conf, jars);
        } catch (IllegalArgumentException e) {
            throw new MalformedJobSpecException(e.getMessage());
        }
    }

    private static byte byteAt(ByteBuffer in, String what) throws MalformedJobSpecException {
        need(in, 1, what);
        return in.get();
    }

    private static int count(ByteBuffer in, String what, int max) throws MalformedJobSpecException {
        need(in, 4, what);
        int n = in.getInt();
        if (n < 0 || n > max) {
            throw new MalformedJobSpecException(what + " " + n + " outside 0.." + max);
        }
        return n;
    }

    private static String readString(ByteBuffer in, String what) throws MalformedJobSpecException {
        int length = count(in, what + " length", MAX_STRING_BYTES);
        need(in, length, what);
        ByteBuffer slice = in.slice();
        slice.limit(length);
        in.position(in.position() + length);
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(slice)
                    .toString();
        } catch (CharacterCodingException e) {
            throw new MalformedJobSpecException(what + " is not valid UTF-8");
        }
    }

    private static void need(ByteBuffer in, int n, String what) throws MalformedJobSpecException {
        if (in.remaining() < n) {
            throw new MalformedJobSpecException("truncated at " + what + " (offset " + in.position() + ", need " + n
                    + " bytes, have " + in.remaining() + ")");
        }
    }
}
