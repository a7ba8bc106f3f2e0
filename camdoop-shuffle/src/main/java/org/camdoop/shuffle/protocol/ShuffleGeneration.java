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
 * @param failed       the servers the root knew failed when it started this generation, ascending (a repair: those of
 *                     the generation it repairs and the one it repairs for)
 * @param incarnations the incarnation of each failed server's daemon the root knew declared failed, in the order of
 *                     {@code failed}: a daemon that has seen a later run of one of them rejoin does not take it for
 *                     failed again (docs/recovery.md, "Rejoin")
 * @param rootIncarnation the incarnation of the root's daemon that started this generation: a report that an earlier
 *                     run of the root's server failed does not stop a shuffle a later run roots. Every daemon's
 *                     {@code startShuffle} sets it; 0 (only in {@link #FIRST}, a spec not started yet) means any
 *                     report of the root's failure stops the shuffle
 * @param repair       present for a repair generation: it rebuilds only these trees of generation {@code number - 1},
 *                     which goes on in the others ({@code resumeAfter} is then empty: each tree has its own key)
 */
public record ShuffleGeneration(int number, Optional<byte[]> resumeAfter, int[] failed, long[] incarnations,
        long rootIncarnation, Optional<TreeRepair> repair) {

    /**
     * Generations a shuffle may run (the failures it survives plus one) before its reduce attempt fails instead: a
     * START naming a later one is refused.
     */
    public static final int MAX_GENERATIONS = 8;

    /** Keys a resumed generation may name: one service message carries it. */
    public static final int MAX_RESUME_KEY_BYTES = 16 * 1024;

    /** The first run of a shuffle, on a failure view with no failed server. */
    public static final ShuffleGeneration FIRST = new ShuffleGeneration(0, Optional.empty(), new int[0], new long[0],
            0);

    /** A whole generation: every tree runs, all from {@code resumeAfter}. */
    public ShuffleGeneration(int number, Optional<byte[]> resumeAfter, int[] failed, long[] incarnations,
            long rootIncarnation) {
        this(number, resumeAfter, failed, incarnations, rootIncarnation, Optional.empty());
    }

    public ShuffleGeneration {
        if (number < 0 || number >= MAX_GENERATIONS) {
            throw new IllegalArgumentException("generation must be 0.." + (MAX_GENERATIONS - 1) + ", got " + number);
        }
        if (repair.isPresent() && (number == 0 || resumeAfter.isPresent())) {
            throw new IllegalArgumentException("a repair needs a generation to repair and has no shuffle-wide resume"
                    + " key: generation " + number);
        }
        if (resumeAfter.isPresent() && resumeAfter.get().length > MAX_RESUME_KEY_BYTES) {
            throw new IllegalArgumentException("a resume key of " + resumeAfter.get().length + " bytes is longer than "
                    + MAX_RESUME_KEY_BYTES);
        }
        resumeAfter = resumeAfter.map(byte[]::clone);
        failed = failed.clone();
        incarnations = incarnations.clone();
        if (rootIncarnation < 0) {
            throw new IllegalArgumentException("root incarnation " + rootIncarnation);
        }
        if (incarnations.length != failed.length) {
            throw new IllegalArgumentException(failed.length + " failed servers but " + incarnations.length
                    + " incarnations");
        }
        for (int i = 0; i < failed.length; i++) {
            if (incarnations[i] < 0) {
                throw new IllegalArgumentException("incarnation " + incarnations[i] + " of failed server " + failed[i]);
            }
            if (failed[i] < 0 || (i > 0 && failed[i] <= failed[i - 1])) {
                throw new IllegalArgumentException("failed servers must be distinct, >= 0 and ascending: "
                        + Arrays.toString(failed));
            }
        }
    }

    /**
     * The first run of a shuffle on a failure view with these failed servers (ascending) at these incarnations, started
     * by the root's daemon at {@code rootIncarnation}.
     */
    public static ShuffleGeneration first(int[] failed, long[] incarnations, long rootIncarnation) {
        return new ShuffleGeneration(0, Optional.empty(), failed, incarnations, rootIncarnation);
    }

    /** The next generation: resumes after {@code lastKey} (empty: from the start) with {@code failedNow}. */
    public ShuffleGeneration next(Optional<byte[]> lastKey, int[] failedNow, long[] incarnationsNow) {
        return new ShuffleGeneration(number + 1, lastKey, failedNow, incarnationsNow, rootIncarnation);
    }

    /** The next generation as a repair of this one: rebuilds {@code repair}'s trees only, with {@code failedNow}. */
    public ShuffleGeneration repairing(TreeRepair repair, int[] failedNow, long[] incarnationsNow) {
        return new ShuffleGeneration(number + 1, Optional.empty(), failedNow, incarnationsNow, rootIncarnation,
                Optional.of(repair));
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
    public long[] incarnations() {
        return incarnations.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ShuffleGeneration g && number == g.number && Arrays.equals(failed, g.failed)
                && Arrays.equals(incarnations, g.incarnations) && rootIncarnation == g.rootIncarnation
                && repair.equals(g.repair)
                && resumeAfter.isPresent() == g.resumeAfter.isPresent()
                && (resumeAfter.isEmpty() || Arrays.equals(resumeAfter.get(), g.resumeAfter.get()));
    }

    @Override
    public int hashCode() {
        return 31 * (31 * number + Arrays.hashCode(failed)) + resumeAfter.map(Arrays::hashCode).orElse(-1);
    }

    @Override
    public String toString() {
        return "generation " + number + (repair.isPresent() ? "" : resumeAfter.isEmpty() ? " from the start"
                : " after key " + HexFormat.of().formatHex(resumeAfter.get(), 0, Math.min(32, resumeAfter.get().length))
                        + (resumeAfter.get().length > 32 ? "..." : "")) + ", failed " + Arrays.toString(failed)
                + repair.map(r -> ", repairing " + r + " of generation " + (number - 1)).orElse("");
    }
}
