package org.camdoop.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TextCorpusTest {
    @TempDir
    Path dir;

    private static final TextCorpus.Spec SPEC = new TextCorpus.Spec(3, 60_000, new KeyModel.Zipf(500), 4);

    @Test
    void writesZipfDistributedWordsToTheTargetSize() throws IOException {
        TextCorpus.Written written = TextCorpus.write(SPEC, dir);
        assertEquals(3, written.files().size());
        Set<String> vocabulary = new HashSet<>();
        for (byte[] w : TextCorpus.vocabulary(500, 4)) {
            vocabulary.add(new String(w, StandardCharsets.US_ASCII));
        }
        assertEquals(500, vocabulary.size(), "words are distinct");
        Map<String, Integer> counts = new HashMap<>();
        long bytes = 0;
        long words = 0;
        long lines = 0;
        for (Path file : written.files()) {
            long size = Files.size(file);
            assertTrue(size >= 20_000 && size < 20_000 + 15 * 10, file + ": " + size);
            bytes += size;
            List<String> fileLines = Files.readAllLines(file, StandardCharsets.US_ASCII);
            for (String line : fileLines) {
                String[] tokens = line.split(" ");
                assertTrue(tokens.length >= 5 && tokens.length <= 15, line);
                for (String t : tokens) {
                    assertTrue(vocabulary.contains(t), t);
                    counts.merge(t, 1, Integer::sum);
                }
                words += tokens.length;
            }
            lines += fileLines.size();
        }
        assertEquals(written.bytes(), bytes);
        assertEquals(written.words(), words);
        assertEquals(written.lines(), lines);
        String top = new String(TextCorpus.vocabulary(500, 4)[0], StandardCharsets.US_ASCII);
        String second = new String(TextCorpus.vocabulary(500, 4)[1], StandardCharsets.US_ASCII);
        int max = counts.values().stream().max(Integer::compare).orElseThrow();
        assertEquals(max, counts.get(top), "rank 1 is the most frequent word");
        double ratio = (double) counts.get(top) / counts.get(second);
        assertTrue(ratio > 1.5 && ratio < 2.5, "rank 1 / rank 2 = " + ratio);
    }

    @Test
    void sameSeedSameCorpusOtherSeedOtherCorpus() throws IOException {
        TextCorpus.Written a = TextCorpus.write(SPEC, dir.resolve("a"));
        TextCorpus.Written b = TextCorpus.write(SPEC, dir.resolve("b"));
        TextCorpus.Written c = TextCorpus.write(new TextCorpus.Spec(3, 60_000, new KeyModel.Zipf(500), 5),
                dir.resolve("c"));
        for (int f = 0; f < 3; f++) {
            assertArrayEquals(Files.readAllBytes(a.files().get(f)), Files.readAllBytes(b.files().get(f)));
            assertFalse(Arrays.equals(Files.readAllBytes(a.files().get(f)), Files.readAllBytes(c.files().get(f))));
        }
    }
}
