package org.camdoop.shuffle.protocol;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Proofs that a request comes from a holder of the job's token: HMAC-SHA256, keyed by the job token's password, over a
 * canonical line-based message that names exactly what is being registered. The message starts with a purpose and
 * version line so a proof for one kind of request can never be replayed as another. Stateless.
 *
 * <pre>
 * map output:  "camdoop-register-v2\n" jobId "\n" attemptId "\n" partitions
 * job spec:    "camdoop-spec-v1\n" jobId "\n" hex(SHA-256(JobSpecCodec.encode(spec)))
 * shuffle:     "camdoop-shuffle-v2\n" jobId "\n" partition "\n" reduce attempt "\n" mode code "\n" trees code "\n"
 *              hex(daemon's nonce) "\n" hex(SHA-256(map attempts, sorted, each followed by "\n"))
 * jar:         "camdoop-jar-v1\n" jobId "\n" hex(SHA-256(jar)) "\n" size
 * </pre>
 *
 * The shuffle proof is bound to a fresh nonce the daemon issued on the same connection (one use), so a captured START
 * cannot be replayed, and it covers everything that decides what the shuffle does (mode, trees, the attempt list).
 */
public final class JobTokenProof {
    static final String MAP_OUTPUT_PURPOSE = "camdoop-register-v2\n";
    static final String SPEC_PURPOSE = "camdoop-spec-v1\n";
    static final String SHUFFLE_PURPOSE = "camdoop-shuffle-v2\n";
    static final String JAR_PURPOSE = "camdoop-jar-v1\n";
    private static final String HMAC = "HmacSHA256";

    private JobTokenProof() {}

    /** The proof for registering {@code output}. */
    public static byte[] forMapOutput(byte[] jobTokenPassword, MapOutput output) {
        return hmac(jobTokenPassword,
                MAP_OUTPUT_PURPOSE + output.jobId() + "\n" + output.attemptId() + "\n" + output.partitions());
    }

    /** The proof for registering {@code spec} from a task of the job. */
    public static byte[] forSpec(byte[] jobTokenPassword, JobSpec spec) {
        byte[] specDigest = JarDigest.sha256().digest(JobSpecCodec.encode(spec));
        return hmac(jobTokenPassword, SPEC_PURPOSE + spec.jobId() + "\n" + HexFormat.of().formatHex(specDigest));
    }

    /**
     * The proof for asking the local daemon to be the root of a reduce attempt's shuffle, bound to the daemon's
     * {@code nonce}; {@code modeCode} and {@code treesCode} are the wire codes ({@link ShuffleCodes}).
     */
    public static byte[] forShuffle(byte[] jobTokenPassword, String jobId, int partition, int attempt, int modeCode,
            int treesCode, byte[] nonce, java.util.SortedSet<String> mapAttempts) {
        MessageDigest attempts = JarDigest.sha256();
        for (String a : mapAttempts) {
            attempts.update((a + "\n").getBytes(StandardCharsets.UTF_8));
        }
        HexFormat hex = HexFormat.of();
        return hmac(jobTokenPassword, SHUFFLE_PURPOSE + jobId + "\n" + partition + "\n" + attempt + "\n" + modeCode
                + "\n" + treesCode + "\n" + hex.formatHex(nonce) + "\n" + hex.formatHex(attempts.digest()));
    }

    /** The proof for sending the jar {@code digest} of {@code size} bytes for {@code jobId}. */
    public static byte[] forJar(byte[] jobTokenPassword, String jobId, JarDigest digest, long size) {
        return hmac(jobTokenPassword, JAR_PURPOSE + jobId + "\n" + digest.hex() + "\n" + size);
    }

    /** Whether {@code proof} equals {@code expected}, in time independent of where they differ. */
    public static boolean matches(byte[] expected, byte[] proof) {
        return MessageDigest.isEqual(expected, proof);
    }

    private static byte[] hmac(byte[] key, String message) {
        if (key.length == 0) {
            throw new IllegalArgumentException("empty job token password");
        }
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(new SecretKeySpec(key, HMAC));
            return mac.doFinal(message.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every Java platform has " + HMAC, e);
        }
    }
}
