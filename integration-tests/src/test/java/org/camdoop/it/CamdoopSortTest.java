package org.camdoop.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.SequenceFile;
import org.camdoop.minicluster.MiniClusterResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The examples' sort (no combiner: Camdoop merges only) on randomwriter output and secondarysort (its own key class,
 * partitioner and grouping comparator, loaded by the daemons from the job's jar), each with Camdoop and with the stock
 * shuffle: the same output.
 */
class CamdoopSortTest {

    @Test
    @Timeout(400)
    void sortOfRandomWriterOutputMatchesTheStockShuffle(@TempDir Path dir) throws Exception {
        Path random = dir.resolve("random");
        MiniClusterResult written = CamdoopRuns.run(dir.resolve("work-rw"), true, List.of("randomwriter",
                "-Dmapreduce.randomwriter.bytespermap=150000", "-Dmapreduce.randomwriter.mapsperhost=1",
                random.toString()));
        assertEquals(0, written.exit(), "randomwriter");
        Path stockOut = dir.resolve("sorted-stock");
        Path camdoopOut = dir.resolve("sorted-camdoop");
        MiniClusterResult stock = CamdoopRuns.run(dir.resolve("work-stock"), true,
                List.of("sort", random.toString(), stockOut.toString()));
        MiniClusterResult camdoop = CamdoopRuns.run(dir.resolve("work-camdoop"), false,
                List.of("sort", random.toString(), camdoopOut.toString()));
        assertEquals(0, stock.exit(), "stock sort");
        CamdoopRuns.assertWentThroughCamdoop(camdoop);
        assertEquals(0L, camdoop.counters().getOrDefault("Records combined on path", 0L), "sort has no combiner");
        // SequenceFiles carry a random sync marker per file: compare the records, in order.
        String[] parts = CamdoopRuns.partFiles(stockOut);
        assertArrayEquals(parts, CamdoopRuns.partFiles(camdoopOut));
        long records = 0;
        for (String part : parts) {
            List<byte[]> expected = records(stockOut.resolve(part));
            List<byte[]> actual = records(camdoopOut.resolve(part));
            assertEquals(expected.size(), actual.size(), part);
            for (int i = 0; i < expected.size(); i++) {
                assertArrayEquals(expected.get(i), actual.get(i), part + " record " + i);
            }
            records += expected.size();
        }
        assertTrue(records > 0, "sort wrote no records");
    }

    private static List<byte[]> records(Path file) throws Exception {
        List<byte[]> out = new ArrayList<>();
        try (SequenceFile.Reader reader = new SequenceFile.Reader(new Configuration(),
                SequenceFile.Reader.file(new org.apache.hadoop.fs.Path(file.toUri())))) {
            BytesWritable key = new BytesWritable();
            BytesWritable value = new BytesWritable();
            while (reader.next(key, value)) {
                byte[] k = Arrays.copyOf(key.getBytes(), key.getLength());
                byte[] v = Arrays.copyOf(value.getBytes(), value.getLength());
                byte[] both = Arrays.copyOf(k, k.length + v.length);
                System.arraycopy(v, 0, both, k.length, v.length);
                out.add(both);
            }
        }
        return out;
    }

    @Test
    @Timeout(400)
    void secondarySortMatchesTheStockShuffleByteForByte(@TempDir Path dir) throws Exception {
        Path in = dir.resolve("in");
        Files.createDirectories(in);
        java.util.Random rnd = new java.util.Random(5);
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 5000; i++) {
            lines.append(rnd.nextInt(101) - 50).append(' ').append(rnd.nextInt(2001) - 1000).append('\n');
        }
        Files.writeString(in.resolve("pairs.txt"), lines);
        Path stockOut = dir.resolve("out-stock");
        Path camdoopOut = dir.resolve("out-camdoop");
        MiniClusterResult stock = CamdoopRuns.run(dir.resolve("work-stock"), true,
                List.of("secondarysort", in.toString(), stockOut.toString()));
        MiniClusterResult camdoop = CamdoopRuns.run(dir.resolve("work-camdoop"), false,
                List.of("secondarysort", in.toString(), camdoopOut.toString()));
        assertEquals(0, stock.exit(), "stock secondarysort");
        CamdoopRuns.assertWentThroughCamdoop(camdoop);
        String[] parts = CamdoopRuns.partFiles(stockOut);
        assertArrayEquals(parts, CamdoopRuns.partFiles(camdoopOut));
        for (String part : parts) {
            assertArrayEquals(Files.readAllBytes(stockOut.resolve(part)), Files.readAllBytes(camdoopOut.resolve(part)),
                    part);
        }
        assertTrue(Files.size(stockOut.resolve(parts[0])) > 0);
    }
}
