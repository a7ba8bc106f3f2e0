package org.camdoop.shuffle.protocol;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Which run of a shuffle this is (paper section 4.2). A shuffle whose server failed is run again by its root as the
 * next generation: on the servers the root's failure view leaves live, and from just after the last key the reducer
 * already received whole. Every daemon plans a generation with the same failure view (the one carried here), so
 * sender and receiver of every stream still compute the same edge; streams of different generations never meet,
 * because the generation is part of the stream key.
 *
 * @param number       0 for the first run, then 1, 2, ... for each restart
 * @param resumeAfter  the last key (raw bytes, the job's sort order) the reducer received with all its records;
 *                     empty when the run starts from the first key
 * @param failed       the servers the root knew failed when it started this generation, ascending
 */
public record ShuffleGeneration(int number, Optional<byte[]> resumeAfter, int[] failed) {

    /** Keys a resumed generation may name: one service message carries it. */
    public static final int MAX_RESUME_KEY_BYTES = 16 * 1024;

    /** The first run of a shuffle, on a failure view with no failed server. */
    public static final ShuffleGeneration FIRST = new ShuffleGeneration(0, Optional.empty(), new int[0]);

    public ShuffleGeneration {
        if (number < 0) {
            throw new IllegalArgumentException("generation must be >= 0, got " + number);
        }
        if (resumeAfter.isPresent() && resumeAfter.get().length > MAX_RESUME_KEY_BYTES) {
            throw new IllegalArgumentException("a resume key of " + resumeAfter.get().length + " bytes is longer than "
                    + MAX_RESUME_KEY_BYTES);
        }
        resumeAfter = resumeAfter.map(byte[]::clone);
        failed = failed.clone();
        for (int i = 0; i < failed.length; i++) {
            if (failed[i] < 0 || (i > 0 && failed[i] <= failed[i - 1])) {
                throw new IllegalArgumentException("failed servers must be distinct, >= 0 and ascending: "
                        + Arrays.toString(failed));
            }
        }
    }

    /** The first run of a shuffle on a failure view with these failed servers (ascending). */
    public static ShuffleGeneration first(int[] failed) {
        return new ShuffleGeneration(0, Optional.empty(), failed);
    }

    /** The next generation: resumes after {@code lastKey} (empty: from the start) with {@code failedNow}. */
    public ShuffleGeneration next(Optional<byte[]> lastKey, int[] failedNow) {
        return new ShuffleGeneration(number + 1, lastKey, failedNow);
    }

    @Override
    public Optional<byte[]> resumeAfter() {
        return resumeAfter.map(byte[]::clone);
    }

    @Override
    public int[] failed() {
        return failed.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ShuffleGeneration g && number == g.number && Arrays.equals(failed, g.failed)
                && resumeAfter.isPresent() == g.resumeAfter.isPresent()
                && (resumeAfter.isEmpty() || Arrays.equals(resumeAfter.get(), g.resumeAfter.get()));
    }

    @Override
    public int hashCode() {
        return 31 * (31 * number + Arrays.hashCode(failed)) + resumeAfter.map(Arrays::hashCode).orElse(-1);
    }

    @Override
    public String toString() {
        return "generation " + number + (resumeAfter.isEmpty() ? " from the start"
                : " after key " + HexFormat.of().formatHex(resumeAfter.get(), 0, Math.min(32, resumeAfter.get().length))
                        + (resumeAfter.get().length > 32 ? "..." : "")) + ", failed " + Arrays.toString(failed);
    }
}
