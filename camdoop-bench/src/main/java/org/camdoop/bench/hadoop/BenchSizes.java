package org.camdoop.bench.hadoop;

/**
 * How big one Hadoop benchmark run is. {@code --quick} and the default run differ only in these sizes.
 *
 * @param wordcountMb the randomtextwriter corpus wordcount reads, in MiB
 * @param sortMb the randomwriter output sort reads, in MiB
 * @param maps map tasks of each generator, so input files and (one split per file) maps of each measured job
 * @param reduces reduce tasks of each measured job
 */
record BenchSizes(int wordcountMb, int sortMb, int maps, int reduces) {

    /** Finishes in about 4 minutes on the shared 2-core development machine. */
    static final BenchSizes QUICK = new BenchSizes(24, 16, 3, 3);
    /** The default run; about 10 minutes on the 2-core development machine. */
    static final BenchSizes DEFAULT = new BenchSizes(512, 256, 6, 3);

    static final int MAX_MB = 4096;
    static final int MAX_TASKS = 48;

    /** @throws IllegalArgumentException naming the option whose value is out of range */
    BenchSizes {
        check("--wordcount-mb", wordcountMb, MAX_MB);
        check("--sort-mb", sortMb, MAX_MB);
        check("--maps", maps, MAX_TASKS);
        check("--reduces", reduces, MAX_TASKS);
    }

    /** The defaults of the run ({@link #QUICK} or {@link #DEFAULT}) with the options given (null: not given). */
    static BenchSizes of(boolean quick, Integer wordcountMb, Integer sortMb, Integer maps, Integer reduces) {
        BenchSizes base = quick ? QUICK : DEFAULT;
        return new BenchSizes(wordcountMb != null ? wordcountMb : base.wordcountMb,
                sortMb != null ? sortMb : base.sortMb, maps != null ? maps : base.maps,
                reduces != null ? reduces : base.reduces);
    }

    /** Bytes each generator map writes so that {@code maps} maps write {@code mb} MiB in all. */
    long bytesPerMap(int mb) {
        return (long) mb * 1024 * 1024 / maps;
    }

    private static void check(String option, int value, int max) {
        if (value < 1 || value > max) {
            throw new IllegalArgumentException(option + " must be from 1 to " + max + ", got " + value);
        }
    }
}
