package org.camdoop.bench.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.SequenceFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutputsMatchTest {

    @Test
    void textPartsMustBeByteIdentical(@TempDir Path dir) throws Exception {
        Path stock = Files.createDirectories(dir.resolve("stock"));
        Path camdoop = Files.createDirectories(dir.resolve("camdoop"));
        Files.writeString(stock.resolve("part-r-00000"), "a\t1\nb\t2\n");
        Files.writeString(camdoop.resolve("part-r-00000"), "a\t1\nb\t2\n");
        Files.writeString(stock.resolve("_SUCCESS"), "");
        assertEquals(Optional.empty(), OutputsMatch.sameBytes(stock, camdoop));
        Files.writeString(camdoop.resolve("part-r-00000"), "a\t1\nb\t3\n");
        assertEquals(Optional.of("part-r-00000 differs from byte 6"), OutputsMatch.sameBytes(stock, camdoop));
        Files.writeString(camdoop.resolve("part-r-00001"), "");
        assertEquals(Optional.of("part files differ: stock [part-r-00000], camdoop [part-r-00000, part-r-00001]"),
                OutputsMatch.sameBytes(stock, camdoop));
    }

    @Test
    void sequenceFilesMatchRecordForRecordDespiteTheirSyncMarkers(@TempDir Path dir) throws Exception {
        Path stock = Files.createDirectories(dir.resolve("stock"));
        Path camdoop = Files.createDirectories(dir.resolve("camdoop"));
        write(stock.resolve("part-r-00000"), "k1", "v1", "k2", "v2");
        write(camdoop.resolve("part-r-00000"), "k1", "v1", "k2", "v2");
        assertEquals(Optional.empty(), OutputsMatch.sameRecords(stock, camdoop));
        write(camdoop.resolve("part-r-00000"), "k1", "v1", "k2", "vX");
        assertEquals(Optional.of("part-r-00000 differs at record 1"), OutputsMatch.sameRecords(stock, camdoop));
        write(camdoop.resolve("part-r-00000"), "k1", "v1");
        assertEquals(Optional.of("part-r-00000 has fewer records with Camdoop (1 in common)"),
                OutputsMatch.sameRecords(stock, camdoop));
    }

    private static void write(Path file, String... keysAndValues) throws Exception {
        Files.deleteIfExists(file);
        try (SequenceFile.Writer w = SequenceFile.createWriter(new Configuration(),
                SequenceFile.Writer.file(new org.apache.hadoop.fs.Path(file.toUri())),
                SequenceFile.Writer.keyClass(BytesWritable.class),
                SequenceFile.Writer.valueClass(BytesWritable.class))) {
            for (int i = 0; i < keysAndValues.length; i += 2) {
                w.append(new BytesWritable(keysAndValues[i].getBytes()),
                        new BytesWritable(keysAndValues[i + 1].getBytes()));
            }
        }
    }
}
