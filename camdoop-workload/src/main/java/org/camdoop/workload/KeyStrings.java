package org.camdoop.workload;

/**
 * The random key strings of the synthetic workload, addressed by serial number: key {@code i} of a seed is always the
 * same string, so every server can produce a shared key without anyone storing it.
 *
 * <p>A key is 4 to 28 characters long (uniformly, as in the paper) over the 62-character alphabet {@code [0-9A-Za-z]}
 * (plain ASCII, so one byte per character in Text's UTF-8). Its first {@code length - 4} characters are random; its last
 * four spell the serial number in base 62 after a fixed bijective scramble. Two keys of one length therefore differ in
 * their last four characters, and keys of different lengths differ anyway: keys with distinct serials are distinct
 * strings by construction, with no set of seen keys to consult. Lowercase letters alone would leave room for only
 * 26^4 serials; 62 characters give {@link #CAPACITY}.
 *
 * <p>Stateless and thread-safe.
 */
public final class KeyStrings {
    /** Shortest key (characters), as in the paper. */
    public static final int MIN_LENGTH = 4;
    /** Longest key (characters), as in the paper. */
    public static final int MAX_LENGTH = 28;
    /** Number of distinct serials: 62^4. */
    public static final int CAPACITY = 62 * 62 * 62 * 62;

    private static final byte[] ALPHABET =
            "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final int SUFFIX = 4;
    /** Coprime with 62^4 = 2^4 * 31^4 (odd, not a multiple of 31), so multiplying by it permutes the serials. */
    private static final long SCRAMBLE_MULTIPLIER = 11_400_713L;

    private final long seed;
    private final long scrambleOffset;

    public KeyStrings(long seed) {
        this.seed = seed;
        this.scrambleOffset = Long.remainderUnsigned(mix(seed ^ 0x5DEECE66DL), CAPACITY);
    }

    /**
     * Bytes of one record with a key of {@code keyChars} characters and an IntWritable value, in IFile record layout:
     * vint key length (1 byte), vint value length (1 byte), the Text key (a 1-byte vint length, then the characters)
     * and the 4-byte int. Every length involved is below 128, so each vint is one byte: {@code keyChars + 7}.
     */
    public static int recordBytes(int keyChars) {
        return keyChars + 7;
    }

    /** Length in characters of key {@code serial}. */
    public int length(long serial) {
        return MIN_LENGTH + (int) Long.remainderUnsigned(mix(seed + serial * 0x9E3779B97F4A7C15L), MAX_LENGTH - MIN_LENGTH + 1);
    }

    /**
     * Writes key {@code serial}'s characters into {@code dst} at {@code offset} and returns how many it wrote
     * ({@link #length(long)}); {@code dst} must have room for {@link #MAX_LENGTH} bytes.
     *
     * @throws IllegalArgumentException if {@code serial} is not in [0, {@link #CAPACITY})
     */
    public int write(long serial, byte[] dst, int offset) {
        if (serial < 0 || serial >= CAPACITY) {
            throw new IllegalArgumentException("key serial " + serial + " outside [0, " + CAPACITY + ")");
        }
        int length = length(serial);
        int random = length - SUFFIX;
        long bits = 0;
        for (int i = 0; i < random; i++) {
            if (i % 10 == 0) {
                // 10 characters of 6 bits each per 64-bit draw; 62/64 of draws map evenly, the slight bias is harmless.
                bits = mix(seed ^ (serial * 0xC2B2AE3D27D4EB4FL + i));
            }
            dst[offset + i] = ALPHABET[(int) ((bits & 63) % ALPHABET.length)];
            bits >>>= 6;
        }
        long scrambled = (serial * SCRAMBLE_MULTIPLIER + scrambleOffset) % CAPACITY;
        for (int i = length - 1; i >= random; i--) {
            dst[offset + i] = ALPHABET[(int) (scrambled % ALPHABET.length)];
            scrambled /= ALPHABET.length;
        }
        return length;
    }

    /** Key {@code serial} as a String (tests and diagnostics). */
    public String key(long serial) {
        byte[] buffer = new byte[MAX_LENGTH];
        int length = write(serial, buffer, 0);
        return new String(buffer, 0, length, java.nio.charset.StandardCharsets.US_ASCII);
    }

    /** SplitMix64's finaliser: a cheap, well-mixed 64-bit hash. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
