package org.camdoop.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.lib.HashPartitioner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutputDigestTest {
    private static final int R = 2;

    @TempDir
    Path dir;

    /** Two servers, three keys: apple on both, pear and fig on one each. */
    private WorkloadManifest tinyCase() throws IOException {
        WorkloadSpec spec = WorkloadSpec.sRatio(2, 0.5, 0, R, 0);
        JobConf job = spec.mapOutputJob();
        ServerMapOutput a = MapOutputs.write(job, 0, dir.resolve("a"), partitioned(Map.of("apple", 1, "pear", 2)));
        ServerMapOutput b = MapOutputs.write(job, 1, dir.resolve("b"), partitioned(Map.of("apple", 3, "fig", 1)));
        return new WorkloadManifest(spec, List.of(a, b));
    }

    private static int partition(String key) {
        return new HashPartitioner<Text, IntWritable>().getPartition(new Text(key), new IntWritable(), R);
    }

    /** {@code records} split by HashPartitioner and put in key order (plain String order equals Text order for ASCII). */
    private static List<LinkedHashMap<String, Integer>> partitioned(Map<String, Integer> records) {
        List<LinkedHashMap<String, Integer>> parts = new ArrayList<>();
        for (int p = 0; p < R; p++) {
            parts.add(new LinkedHashMap<>());
        }
        new TreeMap<>(records).forEach((k, v) -> parts.get(partition(k)).put(k, v));
        return parts;
    }

    /** The documented format, built with Hadoop's own serialization and hashed with a plain MessageDigest. */
    private static String independentDigest(List<LinkedHashMap<String, Integer>> partitions) throws Exception {
        DataOutputBuffer out = new DataOutputBuffer();
        for (LinkedHashMap<String, Integer> partition : partitions) {
            for (Map.Entry<String, Integer> e : partition.entrySet()) {
                DataOutputBuffer key = new DataOutputBuffer();
                new Text(e.getKey()).write(key);
                DataOutputBuffer value = new DataOutputBuffer();
                new IntWritable(e.getValue()).write(value);
                WritableUtils.writeVInt(out, key.getLength());
                WritableUtils.writeVInt(out, value.getLength());
                out.write(key.getData(), 0, key.getLength());
                out.write(value.getData(), 0, value.getLength());
            }
            WritableUtils.writeVInt(out, -1);
            WritableUtils.writeVInt(out, -1);
        }
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        sha.update(out.getData(), 0, out.getLength());
        return HexFormat.of().formatHex(sha.digest());
    }

    private static byte[] bytes(org.apache.hadoop.io.Writable w) throws IOException {
        DataOutputBuffer out = new DataOutputBuffer();
        w.write(out);
        return java.util.Arrays.copyOf(out.getData(), out.getLength());
    }

    @Test
    void tinyCaseMatchesAHandComputedReduceAndDigest() throws Exception {
        WorkloadManifest manifest = tinyCase();
        ReferenceResult reference = ReferenceResult.compute(manifest);
        List<LinkedHashMap<String, Integer>> expected = partitioned(Map.of("apple", 4, "pear", 2, "fig", 1));
        for (int p = 0; p < R; p++) {
            List<ReferenceResult.KeyCount> got = ReferenceResult.records(manifest, p);
            List<ReferenceResult.KeyCount> want = new ArrayList<>();
            expected.get(p).forEach((k, v) -> want.add(new ReferenceResult.KeyCount(k, v)));
            assertEquals(want, got, "partition " + p);
        }
        assertEquals(independentDigest(expected), reference.digest());
        assertEquals(3, reference.records());
        // apple 5+7, pear 4+7, fig 3+7 bytes in IFile record layout.
        assertEquals(12 + 11 + 10, reference.outputBytes());
        assertEquals(2 * 12 + 11 + 10, reference.intermediateBytes());
        long busiest = Math.max(reference.outputBytes(0), reference.outputBytes(1));
        assertEquals(busiest, reference.busiestRootLowerBound());
    }

    @Test
    void incrementalDigestEqualsTheReferenceDigest() throws Exception {
        SyntheticWorkload workload = SyntheticWorkload.generate(WorkloadSpec.sRatio(4, 0.5, 4_000, 3, 21), dir);
        ReferenceResult reference = ReferenceResult.compute(workload.manifest());
        OutputDigest digest = new OutputDigest(3);
        for (int p = 0; p < 3; p++) {
            for (ReferenceResult.KeyCount kc : ReferenceResult.records(workload.manifest(), p)) {
                digest.update(p, bytes(new Text(kc.key())), bytes(new IntWritable(kc.count())));
            }
        }
        assertEquals(reference.digest(), digest.finish());
    }

    @Test
    void partitionsOutOfOrderAreRefused() throws IOException {
        OutputDigest digest = new OutputDigest(3);
        byte[] key = bytes(new Text("k"));
        byte[] value = bytes(new IntWritable(1));
        digest.update(2, key, value);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> digest.update(1, key, value));
        assertTrue(e.getMessage().contains("partition 1 arrived after partition 2"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> digest.update(3, key, value));
        digest.finish();
        assertThrows(IllegalStateException.class, () -> digest.update(2, key, value));
        assertThrows(IllegalStateException.class, digest::finish);
    }

    @Test
    void partitionBoundariesAndLongKeysAreInTheDigest() throws Exception {
        byte[] key = bytes(new Text("k"));
        byte[] value = bytes(new IntWritable(1));
        OutputDigest first = new OutputDigest(2);
        first.update(0, key, value);
        OutputDigest second = new OutputDigest(2);
        second.update(1, key, value);
        assertNotEquals(first.finish(), second.finish(), "the same record in another partition");
        assertNotEquals(new OutputDigest(2).finish(), new OutputDigest(3).finish(), "empty partitions count");

        // A 300-byte key needs multi-byte vints for both lengths.
        String longKey = "x".repeat(300);
        OutputDigest digest = new OutputDigest(1);
        digest.update(0, bytes(new Text(longKey)), bytes(new IntWritable(-7)));
        LinkedHashMap<String, Integer> only = new LinkedHashMap<>();
        only.put(longKey, -7);
        assertEquals(independentDigest(List.of(only)), digest.finish());
    }
}
