package org.camdoop.workload;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * A text corpus for the stock WordCount: lines of 5 to 15 words separated by single spaces, each word drawn with Zipf
 * popularity from a vocabulary of distinct lowercase words, split over files of equal target size
 * ({@code part-00000.txt}, ...). Each file ends at the first line that reaches its share of the bytes.
 *
 * <p>Words are distinct by construction, like {@link KeyStrings}: the word of rank r ends with w letters spelling a
 * scrambled r in base 26 (w the fewest letters that number the vocabulary), after 0 to 4 random letters.
 */
public final class TextCorpus {
    private static final int MIN_WORDS_PER_LINE = 5;
    private static final int MAX_WORDS_PER_LINE = 15;
    private static final int MAX_RANDOM_LETTERS = 4;
    /** Coprime with 26 (odd, not a multiple of 13), so multiplying by it permutes the numbers below 26^w. */
    private static final long SCRAMBLE_MULTIPLIER = 11_400_713L;

    /**
     * What to write.
     *
     * @param files number of files (one map task each under the default input format, if each is below a block)
     * @param totalBytes target size of the whole corpus
     * @param words the vocabulary of distinct words and their Zipf exponent
     * @param seed the corpus is a function of the spec, this seed included
     */
    public record Spec(int files, long totalBytes, KeyModel.Zipf words, long seed) {
        public Spec {
            Objects.requireNonNull(words, "words");
            if (files < 1) {
                throw new IllegalArgumentException("files must be >= 1: " + files);
            }
            if (totalBytes < 0) {
                throw new IllegalArgumentException("totalBytes must be >= 0: " + totalBytes);
            }
        }
    }

    /**
     * What was written.
     *
     * @param files the corpus files, in order
     * @param bytes their total size
     * @param words words written (the sum of WordCount's output counts)
     * @param lines lines written
     */
    public record Written(List<Path> files, long bytes, long words, long lines) {
        public Written {
            files = List.copyOf(files);
        }
    }

    private TextCorpus() {}

    /** Writes the corpus of {@code spec} into {@code dir} (created if missing). */
    public static Written write(Spec spec, Path dir) throws IOException {
        Files.createDirectories(dir);
        byte[][] vocabulary = vocabulary(spec.words().vocabulary(), spec.seed());
        ZipfKeys zipf = new ZipfKeys(spec.words());
        long perFile = spec.totalBytes() / spec.files();
        List<Path> files = new ArrayList<>();
        long bytes = 0;
        long words = 0;
        long lines = 0;
        for (int f = 0; f < spec.files(); f++) {
            Path file = dir.resolve(String.format(Locale.ROOT, "part-%05d.txt", f));
            SplittableRandom random = new SplittableRandom(KeyStrings.mix(spec.seed() * 31 + f));
            long target = f == spec.files() - 1 ? spec.totalBytes() - perFile * (spec.files() - 1) : perFile;
            long written = 0;
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
                while (written < target) {
                    int count = random.nextInt(MIN_WORDS_PER_LINE, MAX_WORDS_PER_LINE + 1);
                    for (int w = 0; w < count; w++) {
                        byte[] word = vocabulary[zipf.nextRank(random) - 1];
                        out.write(word);
                        out.write(w == count - 1 ? '\n' : ' ');
                        written += word.length + 1;
                    }
                    words += count;
                    lines++;
                }
            }
            files.add(file);
            bytes += written;
        }
        return new Written(files, bytes, words, lines);
    }

    /** The word of every rank (index rank - 1) for {@code seed}. */
    static byte[][] vocabulary(int size, long seed) {
        int width = 1;
        long numbers = 26;
        while (numbers < size) {
            width++;
            numbers *= 26;
        }
        SplittableRandom random = new SplittableRandom(KeyStrings.mix(seed ^ 0x77AB12CDL));
        long offset = random.nextLong(numbers);
        byte[][] words = new byte[size][];
        for (int r = 0; r < size; r++) {
            int prefix = random.nextInt(MAX_RANDOM_LETTERS + 1);
            byte[] word = new byte[prefix + width];
            for (int i = 0; i < prefix; i++) {
                word[i] = (byte) ('a' + random.nextInt(26));
            }
            // r < 2^31 and the multiplier < 2^24, so the product cannot overflow a long.
            long scrambled = Math.floorMod(r * SCRAMBLE_MULTIPLIER + offset, numbers);
            for (int i = word.length - 1; i >= prefix; i--) {
                word[i] = (byte) ('a' + scrambled % 26);
                scrambled /= 26;
            }
            words[r] = word;
        }
        return words;
    }
}
