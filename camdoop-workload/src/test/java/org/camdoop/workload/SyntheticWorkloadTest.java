package org.camdoop.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.io.compress.DefaultCodec;
import org.apache.hadoop.io.compress.GzipCodec;
import org.apache.hadoop.mapred.IndexRecord;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.SpillRecord;
import org.apache.hadoop.mapred.lib.HashPartitioner;
import org.camdoop.shuffle.aggregation.JobAggregationSpec;
import org.camdoop.shuffle.aggregation.MapOutputPartitionSource;
import org.camdoop.shuffle.aggregation.SortedRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SyntheticWorkloadTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(doubles = {0, 0.25, 0.5, 0.75, 1})
    void achievedOutputRatioMatchesTheRequestOnTwentySevenServers(double s) throws IOException {
        WorkloadSpec spec = WorkloadSpec.sRatio(27, s, 8_000, 3, 11);
        SyntheticWorkload workload = SyntheticWorkload.generate(spec, dir);
        double target = s == 0 ? 1.0 / 27 : s;
        assertEquals(target, workload.achievedOutputRatio(), 0.02, workload.describe());
        for (ServerMapOutput server : workload.manifest().servers()) {
            assertTrue(server.recordBytes() >= 8_000 && server.recordBytes() < 8_000 + KeyStrings.recordBytes(28),
                    "server " + server.server() + " has M bytes, overshooting by less than one record: "
                            + server.recordBytes());
        }
        // The reference reads the files back: its view of the output must agree with what the generator claims.
        ReferenceResult reference = ReferenceResult.compute(workload.manifest());
        assertEquals(workload.outputBytes(), reference.outputBytes());
        assertEquals(workload.distinctKeys(), reference.records());
        assertEquals(workload.manifest().intermediateBytes(), reference.intermediateBytes());
    }

    @Test
    void sZeroPutsEveryKeyOnEveryServer() throws IOException {
        SyntheticWorkload workload = SyntheticWorkload.generate(WorkloadSpec.sRatio(5, 0, 3_000, 2, 3), dir);
        long perServer = workload.manifest().servers().get(0).records();
        long distinct = 0;
        for (int p = 0; p < 2; p++) {
            for (ReferenceResult.KeyCount kc : ReferenceResult.records(workload.manifest(), p)) {
                assertEquals(5, kc.count(), kc.key() + " is on every server once");
                distinct++;
            }
        }
        assertEquals(perServer, distinct);
        assertEquals(0.2, workload.achievedOutputRatio(), 1e-12, "exactly 1/N when every key is shared");
    }

    @Test
    void sOneMakesEveryKeyUniqueAcrossServers() throws IOException {
        SyntheticWorkload workload = SyntheticWorkload.generate(WorkloadSpec.sRatio(5, 1, 3_000, 2, 3), dir);
        long distinct = 0;
        for (int p = 0; p < 2; p++) {
            for (ReferenceResult.KeyCount kc : ReferenceResult.records(workload.manifest(), p)) {
                assertEquals(1, kc.count(), kc.key());
                distinct++;
            }
        }
        assertEquals(workload.manifest().records(), distinct);
        assertEquals(1.0, workload.achievedOutputRatio(), 1e-12);
    }

    @Test
    void ratiosBelowOneOverNAreRaisedToTheLowerBound() throws IOException {
        SyntheticWorkload workload = SyntheticWorkload.generate(WorkloadSpec.sRatio(4, 0.1, 2_000, 1, 3), dir);
        assertEquals(0.25, workload.achievedOutputRatio(), 1e-12);
        assertThrows(IllegalArgumentException.class, () -> new KeyModel.Uniform(1.5));
        assertThrows(IllegalArgumentException.class, () -> new KeyModel.Uniform(Double.NaN));
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "deflate", "gzip"})
    void mapOutputsAreValidHadoopMapOutputs(String codec) throws IOException {
        WorkloadSpec spec = WorkloadSpec.sRatio(3, 0.5, 20_000, 5, 7);
        spec = switch (codec) {
            case "deflate" -> spec.withCodec(DefaultCodec.class);
            case "gzip" -> spec.withCodec(GzipCodec.class);
            default -> spec;
        };
        SyntheticWorkload workload = SyntheticWorkload.generate(spec, dir);
        JobConf job = spec.mapOutputJob();
        RawComparator<Text> textOrder = WritableComparator.get(Text.class);
        HashPartitioner<Text, IntWritable> partitioner = new HashPartitioner<>();
        for (ServerMapOutput server : workload.manifest().servers()) {
            assertEquals(SyntheticWorkload.serverDir(dir, server.server()).resolve("file.out"), server.file());
            SpillRecord index = new SpillRecord(MapOutputs.hadoop(server.index()), job);
            assertEquals(5, index.size());
            Set<String> keysOfServer = new HashSet<>();
            for (int p = 0; p < 5; p++) {
                PartitionSegment segment = server.partitions().get(p);
                IndexRecord entry = index.getIndex(p);
                assertEquals(segment.startOffset(), entry.startOffset);
                assertEquals(segment.rawLength(), entry.rawLength);
                assertEquals(segment.partLength(), entry.partLength);
                List<MapOutputs.Raw> records = MapOutputs.read(job, server.file(), server.index(), p);
                assertEquals(segment.records(), records.size());
                long bytes = 0;
                for (int i = 0; i < records.size(); i++) {
                    MapOutputs.Raw r = records.get(i);
                    Text key = r.text();
                    assertEquals(p, partitioner.getPartition(key, new IntWritable(1), 5), key + " in partition " + p);
                    assertTrue(key.getLength() >= 4 && key.getLength() <= 28, key.toString());
                    assertTrue(key.toString().matches("[0-9A-Za-z]+"), key.toString());
                    assertEquals(1, r.count());
                    assertTrue(keysOfServer.add(key.toString()), "keys are distinct within a map output: " + key);
                    if (i > 0) {
                        byte[] prev = records.get(i - 1).key();
                        assertTrue(textOrder.compare(prev, 0, prev.length, r.key(), 0, r.key().length) < 0,
                                "sorted in Text order at record " + i + " of partition " + p);
                    }
                    bytes += 2 + r.key().length + r.value().length;
                }
                assertEquals(segment.recordBytes(), bytes);
                if (!codec.equals("none")) {
                    assertTrue(segment.partLength() < segment.rawLength(), "the codec was used");
                }
            }
        }
        assertEquals(workload.manifest().intermediateBytes(),
                workload.manifest().servers().stream().mapToLong(ServerMapOutput::recordBytes).sum());
    }

    @Test
    void theShuffleEngineReadsTheMapOutputsToo() throws IOException {
        WorkloadSpec spec = WorkloadSpec.sRatio(2, 0.25, 10_000, 3, 5).withCodec(DefaultCodec.class);
        SyntheticWorkload workload = SyntheticWorkload.generate(spec, dir);
        JobAggregationSpec engine = JobAggregationSpec.fromJob(spec.mapOutputJob());
        for (ServerMapOutput server : workload.manifest().servers()) {
            for (PartitionSegment segment : server.partitions()) {
                MapOutputPartitionSource source = MapOutputPartitionSource.locate(engine,
                        MapOutputs.hadoop(server.file()), MapOutputs.hadoop(server.index()), segment.partition());
                long records = 0;
                try (SortedRun run = source.open()) {
                    while (run.advance() == org.camdoop.shuffle.aggregation.Advance.RECORD) {
                        records++;
                    }
                }
                assertEquals(segment.records(), records);
                assertEquals(segment.rawLength(), source.rawBytes());
            }
        }
    }

    @Test
    void sameSeedWritesIdenticalBytesAndAnotherSeedDoesNot() throws IOException {
        WorkloadSpec spec = WorkloadSpec.sRatio(3, 0.5, 5_000, 2, 42);
        SyntheticWorkload a = SyntheticWorkload.generate(spec, dir.resolve("a"));
        SyntheticWorkload b = SyntheticWorkload.generate(spec, dir.resolve("b"));
        SyntheticWorkload c = SyntheticWorkload.generate(WorkloadSpec.sRatio(3, 0.5, 5_000, 2, 43), dir.resolve("c"));
        for (int s = 0; s < 3; s++) {
            ServerMapOutput sa = a.manifest().servers().get(s);
            ServerMapOutput sb = b.manifest().servers().get(s);
            assertArrayEquals(Files.readAllBytes(sa.file()), Files.readAllBytes(sb.file()));
            assertArrayEquals(Files.readAllBytes(sa.index()), Files.readAllBytes(sb.index()));
            assertFalse(java.util.Arrays.equals(Files.readAllBytes(sa.file()),
                    Files.readAllBytes(c.manifest().servers().get(s).file())), "seed 43 differs from seed 42");
        }
        assertEquals(ReferenceResult.compute(a.manifest()).digest(), ReferenceResult.compute(b.manifest()).digest());
    }

    @Test
    void zipfKeysAreCombinedPerServerAndSkewed() throws IOException {
        KeyModel.Zipf model = new KeyModel.Zipf(2_000);
        SyntheticWorkload workload = SyntheticWorkload.generate(WorkloadSpec.zipf(4, model, 20_000, 2, 9), dir);
        JobConf job = workload.spec().mapOutputJob();
        long emittedBytes = 0;
        KeyStrings keys = new KeyStrings(9);
        String top = keys.key(0);
        for (ServerMapOutput server : workload.manifest().servers()) {
            Set<String> seen = new HashSet<>();
            int topCount = 0;
            int maxCount = 0;
            for (int p = 0; p < 2; p++) {
                for (MapOutputs.Raw r : MapOutputs.read(job, server.file(), server.index(), p)) {
                    String key = r.text().toString();
                    assertTrue(seen.add(key), "combined: one record per key within a map output");
                    emittedBytes += (long) r.count() * KeyStrings.recordBytes(key.length());
                    maxCount = Math.max(maxCount, r.count());
                    topCount = key.equals(top) ? r.count() : topCount;
                }
            }
            assertEquals(maxCount, topCount, "rank 1 is the most frequent key on server " + server.server());
            assertTrue(server.recordBytes() < 20_000, "combining shrinks the output below M");
        }
        long m = 20_000;
        assertTrue(emittedBytes >= 4 * m && emittedBytes < 4 * (m + KeyStrings.recordBytes(28)),
                "the emissions before combining are M bytes per server: " + emittedBytes);
        ReferenceResult reference = ReferenceResult.compute(workload.manifest());
        assertEquals(workload.distinctKeys(), reference.records());
        assertEquals(workload.outputBytes(), reference.outputBytes());
        assertTrue(workload.describe().contains("zipf(V=2000, s=0.99)"), workload.describe());
    }

    @Test
    void describeReportsTheFigures() throws IOException {
        SyntheticWorkload workload = SyntheticWorkload.generate(WorkloadSpec.sRatio(3, 0, 1_000, 2, 1), dir);
        String d = workload.describe();
        assertTrue(d.contains("N=3"), d);
        assertTrue(d.contains("S requested 0 (=1/N) (target 0.3333), achieved 0.3333"), d);
        assertTrue(d.contains("M=1000"), d);
        assertTrue(d.contains("R=2"), d);
        assertTrue(d.contains("records " + workload.manifest().records()), d);
        assertTrue(d.contains("intermediate bytes " + workload.manifest().intermediateBytes()), d);
        assertTrue(d.contains("output bytes " + workload.outputBytes()), d);
    }

    @Test
    void emptyWorkloadWritesEmptyMapOutputs() throws IOException {
        SyntheticWorkload workload = SyntheticWorkload.generate(WorkloadSpec.sRatio(2, 0.5, 0, 3, 1), dir);
        assertEquals(0, workload.manifest().records());
        ReferenceResult reference = ReferenceResult.compute(workload.manifest());
        assertEquals(0, reference.outputBytes());
        assertEquals(new OutputDigest(3).finish(), reference.digest());
    }
}
