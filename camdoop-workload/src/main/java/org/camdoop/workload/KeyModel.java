package org.camdoop.workload;

/**
 * Where the synthetic workload's keys come from.
 *
 * <ul>
 *   <li>{@link Uniform}: the paper's section 5.2 workload. Every key is a fresh random string; how many keys all servers
 *       share is set by the output ratio S (see {@link SyntheticWorkload}).
 *   <li>{@link Zipf}: every map emission draws its key from one vocabulary shared by all servers with Zipf popularity;
 *       S is then an outcome, not an input.
 * </ul>
 */
public sealed interface KeyModel {

    /**
     * The paper's S-ratio keys.
     *
     * @param outputRatio S in [0, 1]: output bytes / intermediate bytes. As in the paper, 0 names the lower bound 1/N;
     *     any value below 1/N is raised to 1/N, because no N map outputs can combine to less than one of them
     */
    record Uniform(double outputRatio) implements KeyModel {
        public Uniform {
            if (!(outputRatio >= 0 && outputRatio <= 1)) {
                throw new IllegalArgumentException("output ratio S must be in [0, 1]: " + outputRatio);
            }
        }

        /** The ratio generation aims for with {@code servers} map outputs. */
        public double target(int servers) {
            return Math.max(outputRatio, 1.0 / servers);
        }
    }

    /**
     * Zipf-skewed keys.
     *
     * @param vocabulary number of distinct keys that can occur (rank 1 is the most popular)
     * @param exponent Zipf exponent s (0.99 in the usual skew experiments)
     */
    record Zipf(int vocabulary, double exponent) implements KeyModel {
        /** The skew the project's experiments use. */
        public static final double DEFAULT_EXPONENT = 0.99;

        public Zipf {
            if (vocabulary < 1 || vocabulary > KeyStrings.CAPACITY) {
                throw new IllegalArgumentException(
                        "vocabulary must be in [1, " + KeyStrings.CAPACITY + "]: " + vocabulary);
            }
            if (!(exponent >= 0) || Double.isInfinite(exponent)) {
                throw new IllegalArgumentException("Zipf exponent must be finite and >= 0: " + exponent);
            }
        }

        public Zipf(int vocabulary) {
            this(vocabulary, DEFAULT_EXPONENT);
        }
    }
}
