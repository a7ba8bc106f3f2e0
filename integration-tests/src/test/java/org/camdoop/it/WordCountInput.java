package org.camdoop.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.StringTokenizer;
import java.util.TreeMap;

/** A text input for wordcount and the output the examples' WordCount must produce for it, computed in memory. */
final class WordCountInput {

    private WordCountInput() {
    }

    /** Writes {@code files} files of Zipf-ish words (ASCII, so Text's byte order is String order) into {@code dir}. */
    static void write(Path dir, int files, int linesPerFile, long seed) throws IOException {
        Files.createDirectories(dir);
        Random random = new Random(seed);
        for (int f = 0; f < files; f++) {
            StringBuilder text = new StringBuilder();
            for (int l = 0; l < linesPerFile; l++) {
                int words = 1 + random.nextInt(14);
                for (int w = 0; w < words; w++) {
                    // Skewed: a few hot words and a long tail, as real text, so combining matters.
                    int rank = (int) Math.floor(Math.pow(2000, random.nextDouble()));
                    text.append(w == 0 ? "" : (random.nextInt(10) == 0 ? "\t" : " ")).append("w").append(rank);
                }
                text.append('\n');
            }
            Files.writeString(dir.resolve("part-" + f + ".txt"), text, StandardCharsets.UTF_8);
        }
    }

    /** WordCount's output for every file in {@code dir}: {@code word TAB count} lines in key order. */
    static String expectedOutput(Path dir) throws IOException {
        Map<String, Long> counts = new TreeMap<>();
        try (var files = Files.list(dir)) {
            for (Path f : files.sorted().toList()) {
                // The same tokenizer WordCount's mapper uses.
                StringTokenizer words = new StringTokenizer(Files.readString(f, StandardCharsets.UTF_8));
                while (words.hasMoreTokens()) {
                    counts.merge(words.nextToken(), 1L, Long::sum);
                }
            }
        }
        StringBuilder out = new StringBuilder();
        counts.forEach((w, n) -> out.append(w).append('\t').append(n).append('\n'));
        return out.toString();
    }

    /** All reducer output files of a job's output directory, concatenated in partition order. */
    static String actualOutput(Path outDir) throws IOException {
        StringBuilder out = new StringBuilder();
        try (var files = Files.list(outDir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().startsWith("part-r-")).sorted().toList()) {
                out.append(Files.readString(f, StandardCharsets.UTF_8));
            }
        }
        return out.toString();
    }
}
