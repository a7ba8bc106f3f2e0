package org.camdoop.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ZipfKeysTest {
    @Test
    void rankOneIsAboutTwoToTheSTimesAsFrequentAsRankTwo() {
        ZipfKeys zipf = new ZipfKeys(1_000, 0.99);
        SplittableRandom random = new SplittableRandom(1);
        long[] counts = new long[1_001];
        for (int i = 0; i < 400_000; i++) {
            counts[zipf.nextRank(random)]++;
        }
        double ratio = (double) counts[1] / counts[2];
        assertEquals(Math.pow(2, 0.99), ratio, 0.15, "rank 1 / rank 2 = " + ratio);
        assertEquals(Math.pow(10, 0.99), (double) counts[1] / counts[10], 1.5, "rank 1 / rank 10");
        assertEquals(400_000 * zipf.probability(1), counts[1], 400_000 * 0.02);
    }

    @Test
    void everyDrawIsARankOfTheVocabularyAndTheTailIsReached() {
        ZipfKeys zipf = new ZipfKeys(50, 1.2);
        SplittableRandom random = new SplittableRandom(2);
        boolean[] seen = new boolean[51];
        for (int i = 0; i < 100_000; i++) {
            int rank = zipf.nextRank(random);
            assertTrue(rank >= 1 && rank <= 50, "rank " + rank);
            seen[rank] = true;
        }
        assertTrue(seen[1] && seen[50], "both ends of the vocabulary occur");
    }

    @Test
    void sameSeedSameRanksOtherSeedOtherRanks() {
        ZipfKeys zipf = new ZipfKeys(10_000, 0.99);
        int[] a = draws(zipf, 5);
        assertArrayEquals(a, draws(zipf, 5));
        assertFalse(java.util.Arrays.equals(a, draws(zipf, 6)));
    }

    @Test
    void probabilitiesSumToOneAndExponentZeroIsUniform() {
        ZipfKeys zipf = new ZipfKeys(300, 0.99);
        double sum = 0;
        for (int r = 1; r <= 300; r++) {
            sum += zipf.probability(r);
        }
        assertEquals(1.0, sum, 1e-9);
        ZipfKeys uniform = new ZipfKeys(4, 0);
        for (int r = 1; r <= 4; r++) {
            assertEquals(0.25, uniform.probability(r), 1e-12);
        }
        assertEquals(1, new ZipfKeys(1, 0.99).nextRank(new SplittableRandom(3)));
        assertThrows(IllegalArgumentException.class, () -> new ZipfKeys(0, 0.99));
        assertThrows(IllegalArgumentException.class, () -> new ZipfKeys(5, -1));
        assertThrows(IllegalArgumentException.class, () -> zipf.probability(301));
    }

    private static int[] draws(ZipfKeys zipf, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int[] out = new int[1_000];
        for (int i = 0; i < out.length; i++) {
            out[i] = zipf.nextRank(random);
        }
        return out;
    }
}
