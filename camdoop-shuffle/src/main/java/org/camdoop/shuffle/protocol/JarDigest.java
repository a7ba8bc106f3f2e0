package org.camdoop.shuffle.protocol;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/** The SHA-256 of a jar's bytes, as 64 lower-case hex digits: the jar's name in caches and job specs. */
public record JarDigest(String hex) implements Comparable<JarDigest> {
    private static final Pattern HEX_64 = Pattern.compile("[0-9a-f]{64}");

    /** @throws IllegalArgumentException unless {@code hex} is 64 lower-case hex digits */
    public JarDigest {
        if (hex == null || !HEX_64.matcher(hex).matches()) {
            throw new IllegalArgumentException("not a SHA-256 jar digest (64 lower-case hex digits): " + hex);
        }
    }

    /** The digest of {@code bytes}. */
    public static JarDigest of(byte[] bytes) {
        return fromHash(sha256().digest(bytes));
    }

    /** The digest of the file at {@code jar}. */
    public static JarDigest of(Path jar) throws IOException {
        try (InputStream in = Files.newInputStream(jar)) {
            MessageDigest md = sha256();
            byte[] buf = new byte[64 * 1024];
            for (int n; (n = in.read(buf)) > 0; ) {
                md.update(buf, 0, n);
            }
            return fromHash(md.digest());
        }
    }

    public static JarDigest fromHash(byte[] sha256) {
        return new JarDigest(HexFormat.of().formatHex(sha256));
    }

    public static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    @Override
    public int compareTo(JarDigest other) {
        return hex.compareTo(other.hex);
    }

    @Override
    public String toString() {
        return hex;
    }
}
