package org.camdoop.shuffle.aggregation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.DefaultCodec;
import org.apache.hadoop.io.compress.GzipCodec;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.IFile;
import org.apache.hadoop.mapred.IndexRecord;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.SpillRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Real map output files written with Hadoop's IFile.Writer and SpillRecord, read back through the engine. */
class MapOutputPartitionRunTest {
    @TempDir
    Path dir;

    /** A map output as MapTask writes it: one IFile segment per partition, then the index. */
    static void writeMapOutput(JobConf job, org.apache.hadoop.fs.Path file, org.apache.hadoop.fs.Path index,
            List<List<Records.Raw>> partitions) throws IOException {
        FileSystem fs = FileSystem.getLocal(job).getRaw();
        CompressionCodec codec = job.getCompressMapOutput()
                ? org.apache.hadoop.util.ReflectionUtils.newInstance(job.getMapOutputCompressorClass(DefaultCodec.class), job)
                : null;
        SpillRecord spill = new SpillRecord(partitions.size());
        try (FSDataOutputStream out = fs.create(file, true)) {
            for (int p = 0; p < partitions.size(); p++) {
                long start = out.getPos();
                IFile.Writer<Text, IntWritable> writer =
                        new IFile.Writer<>(job, out, Text.class, IntWritable.class, codec, new Counters.Counter());
                Text key = new Text();
                IntWritable value = new IntWritable();
                for (Records.Raw r : partitions.get(p)) {
                    key.set(new Text(new String(r.key(), 1, r.key().length - 1, java.nio.charset.StandardCharsets.UTF_8)));
                    value.set((int) Reference.value(r.value(), false));
                    writer.append(key, value);
                }
                writer.close();
                spill.putIndex(new IndexRecord(start, writer.getRawLength(), writer.getCompressedLength()), p);
            }
        }
        spill.writeToFile(index, job);
    }

    private JobConf job(String codec) {
        JobConf job = TestJobs.textInt();
        if (codec.equals("default")) {
            job.setCompressMapOutput(true);
            job.setMapOutputCompressorClass(DefaultCodec.class);
        } else if (codec.equals("gzip")) {
            job.setCompressMapOutput(true);
            job.setMapOutputCompressorClass(GzipCodec.class);
        }
        return job;
    }

    private List<List<Records.Raw>> partitions(JobAggregationSpec spec) {
        Random rnd = new Random(42);
        List<List<Records.Raw>> parts = new ArrayList<>();
        parts.add(List.of());
        for (List<Records.Raw> p : Workloads.zipf(rnd, 2, 3000, 800, 0.99)) {
            parts.add(Records.sorted(p, spec.sortComparator()));
        }
        parts.add(List.of());
        parts.add(Records.sorted(Workloads.sRatio(rnd, 1, 5, 1.0).get(0), spec.sortComparator()));
        return parts;
    }

    private org.apache.hadoop.fs.Path path(String name) {
        return new org.apache.hadoop.fs.Path(dir.resolve(name).toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "default", "gzip"})
    void everyPartitionReadsBackExactlyIncludingEmptyOnes(String codec) throws IOException {
        JobAggregationSpec spec = JobAggregationSpec.fromJob(job(codec));
        List<List<Records.Raw>> parts = partitions(spec);
        writeMapOutput(spec.job(), path("file.out"), path("file.out.index"), parts);
        for (int p = 0; p < parts.size(); p++) {
            MapOutputPartitionSource source =
                    MapOutputPartitionSource.locate(spec, path("file.out"), path("file.out.index"), p);
            try (SortedRun run = source.open()) {
                List<Records.Raw> got = Records.drain(run);
                assertEquals(parts.get(p).size(), got.size(), "partition " + p);
                for (int i = 0; i < got.size(); i++) {
                    assertArrayEquals(parts.get(p).get(i).key(), got.get(i).key());
                    assertArrayEquals(parts.get(p).get(i).value(), got.get(i).value());
                }
                assertEquals(Advance.END, run.advance(), "END is sticky");
            }
        }
        if (!codec.equals("none")) {
            long raw = MapOutputPartitionSource.locate(spec, path("file.out"), path("file.out.index"), 1).rawBytes();
            long disk = MapOutputPartitionSource.locate(spec, path("file.out"), path("file.out.index"), 1).segmentBytes();
            assertTrue(disk < raw, "the codec was really used: " + disk + " < " + raw);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "default", "gzip"})
    void anyCorruptByteInASegmentFailsWithChecksumException(String codec) throws IOException {
        JobAggregationSpec spec = JobAggregationSpec.fromJob(job(codec));
        List<List<Records.Raw>> parts = partitions(spec);
        writeMapOutput(spec.job(), path("file.out"), path("file.out.index"), parts);
        IndexRecord segment = new SpillRecord(path("file.out.index"), spec.job()).getIndex(1);
        Random rnd = new Random(17);
        for (int trial = 0; trial < 25; trial++) {
            long at = segment.startOffset + (trial == 0 ? segment.partLength - 1 : rnd.nextInt((int) segment.partLength));
            flipByte(dir.resolve("file.out"), at);
            MapOutputPartitionSource source =
                    MapOutputPartitionSource.locate(spec, path("file.out"), path("file.out.index"), 1);
            SortedRun run = source.open();
            assertThrows(ChecksumException.class, () -> Records.drain(run), "corrupt byte at offset " + at);
            run.close();
            flipByte(dir.resolve("file.out"), at);
        }
        try (SortedRun run =
                MapOutputPartitionSource.locate(spec, path("file.out"), path("file.out.index"), 1).open()) {
            assertEquals(parts.get(1).size(), Records.drain(run).size(), "restored file reads cleanly again");
        }
    }

    @Test
    void unknownPartitionIsRejected() throws IOException {
        JobAggregationSpec spec = JobAggregationSpec.fromJob(job("none"));
        writeMapOutput(spec.job(), path("file.out"), path("file.out.index"), List.of(List.of()));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MapOutputPartitionSource.locate(spec, path("file.out"), path("file.out.index"), 3));
        assertTrue(e.getMessage().contains("has 1 partitions; asked for 3"), e.getMessage());
    }

    @Test
    void encryptedIntermediateDataIsRefusedClearly() {
        JobConf job = job("none");
        job.setBoolean(org.apache.hadoop.mapreduce.MRJobConfig.MR_ENCRYPTED_INTERMEDIATE_DATA, true);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JobAggregationSpec.fromJob(job));
        assertTrue(e.getMessage().contains("stock shuffle"), e.getMessage());
    }

    private static void flipByte(Path file, long at) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(at);
            int b = f.read();
            f.seek(at);
            f.write(b ^ 0x5A);
        }
    }
}
