package org.camdoop.shuffle.protocol;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * What a repair generation rebuilds (paper section 4.2, docs/recovery.md "Tree repair"): in each tree named here, the
 * subtree of the failed server's vertex, on the generation's failure view (the failed vertex itself moves to its
 * parent's server), from just after the last key that parent took whole from it; every other vertex of the generation
 * before it runs on untouched, the parent included, which takes the rebuilt subtree's stream in place of the failed
 * one. Keys are striped over the trees and each key travels in one tree only, so a tree's resume key is exact for that
 * tree whatever the others did.
 *
 * @param vertex     the failed server's vertex (its coordinate's index), the top of every subtree rebuilt
 * @param trees      the trees rebuilt, ascending, distinct; none when every tree the failed server had children in
 *                   had ended (the repair then only ends the streams of its leaf vertices that had not)
 * @param resumeKeys per tree of {@code trees}, the last key (raw bytes, the job's sort order) whose records the
 *                   failed vertex's parent took whole from it; empty when it took none
 */
public record TreeRepair(int vertex, int[] trees, List<Optional<byte[]>> resumeKeys) {

    /** A shuffle has at most six trees, one per port of its root. */
    public static final int MAX_TREES = 6;

    /** The resume keys together, as one START carries them. */
    public static final int MAX_KEY_BYTES = ShuffleGeneration.MAX_RESUME_KEY_BYTES;

    public TreeRepair {
        if (vertex < 0) {
            throw new IllegalArgumentException("repaired vertex " + vertex);
        }
        trees = trees.clone();
        if (trees.length != resumeKeys.size()) {
            throw new IllegalArgumentException(trees.length + " trees repaired with " + resumeKeys.size()
                    + " resume keys");
        }
        long bytes = 0;
        List<Optional<byte[]>> copy = new ArrayList<>(trees.length);
        for (int i = 0; i < trees.length; i++) {
            if (trees[i] < 0 || trees[i] >= MAX_TREES || (i > 0 && trees[i] <= trees[i - 1])) {
                throw new IllegalArgumentException("repaired trees must be distinct, 0.." + (MAX_TREES - 1)
                        + " and ascending: " + Arrays.toString(trees));
            }
            Optional<byte[]> key = resumeKeys.get(i);
            bytes += key.map(k -> k.length).orElse(0);
            copy.add(key.map(byte[]::clone));
        }
        if (bytes > MAX_KEY_BYTES) {
            throw new IllegalArgumentException("resume keys of " + bytes + " bytes are longer than " + MAX_KEY_BYTES);
        }
        resumeKeys = List.copyOf(copy);
    }

    @Override
    public int[] trees() {
        return trees.clone();
    }

    /** Whether tree {@code tree} is rebuilt. */
    public boolean repairs(int tree) {
        return Arrays.binarySearch(trees, tree) >= 0;
    }

    /** Tree {@code tree}'s resume key (empty: from its first key); the tree must be one this repair rebuilds. */
    public Optional<byte[]> resumeKey(int tree) {
        int i = Arrays.binarySearch(trees, tree);
        if (i < 0) {
            throw new IllegalArgumentException("tree " + tree + " is not repaired by " + this);
        }
        return resumeKeys.get(i).map(byte[]::clone);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof TreeRepair r) || vertex != r.vertex || !Arrays.equals(trees, r.trees)) {
            return false;
        }
        for (int i = 0; i < trees.length; i++) {
            Optional<byte[]> a = resumeKeys.get(i);
            Optional<byte[]> b = r.resumeKeys.get(i);
            if (a.isPresent() != b.isPresent() || (a.isPresent() && !Arrays.equals(a.get(), b.get()))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        return 31 * vertex + Arrays.hashCode(trees);
    }

    @Override
    public String toString() {
        if (trees.length == 0) {
            return "no tree (only the failed server's leaf streams end)";
        }
        StringBuilder s = new StringBuilder("vertex " + vertex + "'s subtree in trees");
        for (int i = 0; i < trees.length; i++) {
            s.append(i == 0 ? " " : ", ").append(trees[i]).append(resumeKeys.get(i).map(k -> " after "
                    + HexFormat.of().formatHex(k, 0, Math.min(16, k.length)) + (k.length > 16 ? "..." : ""))
                    .orElse(" from the start"));
        }
        return s.toString();
    }
}
