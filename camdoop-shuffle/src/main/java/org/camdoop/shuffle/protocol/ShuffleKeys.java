package org.camdoop.shuffle.protocol;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** The 64-bit job key a shuffle carries on the wire, derived from the job id alone so every root agrees. Stateless. */
public final class ShuffleKeys {
    private ShuffleKeys() {}

    /** The first eight bytes of SHA-256(jobId). */
    public static long jobKey(String jobId) {
        try {
            return ByteBuffer.wrap(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(jobId.getBytes(StandardCharsets.UTF_8))).getLong();
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
