package org.camdoop.workload;

import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * Zipf(s) popularity over ranks 1..V: rank r is drawn with probability proportional to 1 / r^s. Sampling is inversion
 * over a precomputed cumulative table (8 bytes per rank, built once) with a binary search, so a draw costs
 * O(log V) and allocates nothing. The caller supplies the random generator, which makes a sequence of draws exactly as
 * deterministic as that generator. Immutable and thread-safe (the generator is the caller's).
 */
public final class ZipfKeys {
    private final double exponent;
    /** cumulative[r - 1] = sum of weights of ranks 1..r, normalised so that the last entry is 1. */
    private final double[] cumulative;

    public ZipfKeys(int vocabulary, double exponent) {
        if (vocabulary < 1) {
            throw new IllegalArgumentException("vocabulary must be >= 1: " + vocabulary);
        }
        if (!(exponent >= 0) || Double.isInfinite(exponent)) {
            throw new IllegalArgumentException("Zipf exponent must be finite and >= 0: " + exponent);
        }
        this.exponent = exponent;
        this.cumulative = new double[vocabulary];
        double sum = 0;
        for (int r = 1; r <= vocabulary; r++) {
            sum += Math.pow(r, -exponent);
            cumulative[r - 1] = sum;
        }
        for (int i = 0; i < vocabulary; i++) {
            cumulative[i] /= sum;
        }
        // Rounding could leave the last entry a hair below 1; a draw of 0.99999... must still land on a rank.
        cumulative[vocabulary - 1] = 1.0;
    }

    public ZipfKeys(KeyModel.Zipf model) {
        this(model.vocabulary(), model.exponent());
    }

    public int vocabulary() {
        return cumulative.length;
    }

    public double exponent() {
        return exponent;
    }

    /** A rank in [1, V]. */
    public int nextRank(RandomGenerator random) {
        double u = random.nextDouble();
        int i = Arrays.binarySearch(cumulative, u);
        // Either an exact hit or the insertion point: the first entry whose cumulative weight exceeds u.
        int index = i >= 0 ? i + 1 : -i - 1;
        return Math.min(index, cumulative.length - 1) + 1;
    }

    /** The probability of {@code rank} (1-based). */
    public double probability(int rank) {
        if (rank < 1 || rank > cumulative.length) {
            throw new IllegalArgumentException("rank " + rank + " outside [1, " + cumulative.length + "]");
        }
        return rank == 1 ? cumulative[0] : cumulative[rank - 1] - cumulative[rank - 2];
    }
}
