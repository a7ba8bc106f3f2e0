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
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The examples' sort (no combiner: Camdoop merges only) on randomwriter-like input and secondarysort (its own key
 * class, partitioner and grouping comparator, loaded by the daemons from the job's jar), each through Camdoop on the
 * cluster and with the stock shuffle in Hadoop's LocalJobRunner: the same output. The four run at once
 * ({@link SharedCamdoopCluster#runBesideLocalStock} says why the references run locally).
 */
// The classes that share the run's mini cluster run first (SharedCamdoopCluster.PerRun).
@Order(SharedCamdoopCluster.CLASS_ORDER)
class CamdoopSortTest {

    @RegisterExtension
    static final SharedCamdoopCluster.PerRun SHARED = new SharedCamdoopCluster.PerRun();

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    @Timeout(400)
    void sortOfRandomWriterOutputMatchesTheStockShuffle(@TempDir Path dir) throws Exception {
        Path random = dir.resolve("random");
        writeRandomWriterLikeInput(random, 3, 150_000, 29);
        Path stockOut = dir.resolve("sorted-stock");
        Path camdoopOut = dir.resolve("sorted-camdoop");
        // Two reduces (two roots, two partitions to compare): left to itself, sort asks for 0.9 of the cluster's reduce
        // capacity, five or six reduce JVMs per job, which cost the two jobs side by side over a minute on 2 cores.
        SharedCamdoopCluster.StockAndCamdoop both = SHARED.cluster().runBesideLocalStock(
                List.of("sort", "-r", "2", random.toString(), stockOut.toString()),
                List.of("sort", "-r", "2", random.toString(), camdoopOut.toString()));
        MiniClusterResult stock = both.stock();
        MiniClusterResult camdoop = both.camdoop();
        assertEquals(0, stock.exit(), "the stock run's exit status");
        CamdoopRuns.assertWentThroughCamdoop(camdoop);
        assertEquals(0L, camdoop.counters().getOrDefault("Records combined on path", 0L), "sort has no combiner");
        // SequenceFiles carry a random sync marker per file: compare the records, in order.
        String[] parts = CamdoopRuns.partFiles(stockOut);
        assertEquals(2, parts.length, "one part file per reduce");
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

    /**
     * What the examples' randomwriter writes (its output format, key and value sizes), written here instead of by a
     * randomwriter job on a mini cluster of its own: {@code files} SequenceFiles of random BytesWritable pairs, keys of
     * 10-1000 bytes and values of 0-20000, about {@code bytesPerFile} each.
     */
    private static void writeRandomWriterLikeInput(Path dir, int files, int bytesPerFile, long seed) throws Exception {
        Files.createDirectories(dir);
        java.util.Random random = new java.util.Random(seed);
        for (int f = 0; f < files; f++) {
            try (SequenceFile.Writer writer = SequenceFile.createWriter(new Configuration(),
                    SequenceFile.Writer.file(new org.apache.hadoop.fs.Path(dir.resolve("part-m-0000" + f).toUri())),
                    SequenceFile.Writer.keyClass(BytesWritable.class),
                    SequenceFile.Writer.valueClass(BytesWritable.class))) {
                for (int written = 0; written < bytesPerFile; ) {
                    byte[] key = new byte[10 + random.nextInt(991)];
                    byte[] value = new byte[random.nextInt(20_001)];
                    random.nextBytes(key);
                    random.nextBytes(value);
                    writer.append(new BytesWritable(key), new BytesWritable(value));
                    written += key.length + value.length;
                }
            }
        }
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
    @Execution(ExecutionMode.CONCURRENT)
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
        SharedCamdoopCluster.StockAndCamdoop both = SHARED.cluster().runBesideLocalStock(
                List.of("secondarysort", in.toString(), stockOut.toString()),
                List.of("secondarysort", in.toString(), camdoopOut.toString()));
        MiniClusterResult stock = both.stock();
        MiniClusterResult camdoop = both.camdoop();
        assertEquals(0, stock.exit(), "the stock run's exit status");
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
