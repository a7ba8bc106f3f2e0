package org.camdoop.workload;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.IFile;
import org.apache.hadoop.mapred.IndexRecord;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.SpillRecord;
import org.apache.hadoop.util.ReflectionUtils;

/** Test helpers: map outputs written and read with nothing but Hadoop's IFile and SpillRecord. */
final class MapOutputs {
    private MapOutputs() {}

    /** One record read back: the serialized key and value. */
    record Raw(byte[] key, byte[] value) {
        Text text() throws IOException {
            Text t = new Text();
            DataInputBuffer in = new DataInputBuffer();
            in.reset(key, key.length);
            t.readFields(in);
            return t;
        }

        int count() {
            return ((value[0] & 0xFF) << 24) | ((value[1] & 0xFF) << 16) | ((value[2] & 0xFF) << 8) | (value[3] & 0xFF);
        }
    }

    static CompressionCodec codec(JobConf job) {
        return job.getCompressMapOutput()
                ? ReflectionUtils.newInstance(job.getMapOutputCompressorClass(null), job)
                : null;
    }

    /** Every record of partition {@code p} of a map output, read through its index with IFile.Reader. */
    static List<Raw> read(JobConf job, Path file, Path index, int p) throws IOException {
        IndexRecord segment = new SpillRecord(hadoop(index), job).getIndex(p);
        FileSystem fs = FileSystem.getLocal(job).getRaw();
        FSDataInputStream in = fs.open(hadoop(file));
        in.seek(segment.startOffset);
        IFile.Reader<Text, IntWritable> reader = new IFile.Reader<>(job, in, segment.partLength, codec(job), null);
        List<Raw> out = new ArrayList<>();
        try {
            DataInputBuffer key = new DataInputBuffer();
            DataInputBuffer value = new DataInputBuffer();
            while (reader.nextRawKey(key)) {
                reader.nextRawValue(value);
                out.add(new Raw(java.util.Arrays.copyOfRange(key.getData(), key.getPosition(), key.getLength()),
                        java.util.Arrays.copyOfRange(value.getData(), value.getPosition(), value.getLength())));
            }
        } finally {
            reader.close();
        }
        return out;
    }

    /**
     * Writes a map output by hand: {@code partitions.get(p)} holds partition p's records, already in key order. Returns
     * its manifest entry (record bytes counted independently of the generator).
     */
    static ServerMapOutput write(JobConf job, int server, Path dir, List<LinkedHashMap<String, Integer>> partitions)
            throws IOException {
        java.nio.file.Files.createDirectories(dir);
        Path file = dir.resolve("file.out");
        Path index = dir.resolve("file.out.index");
        FileSystem fs = FileSystem.getLocal(job).getRaw();
        SpillRecord spill = new SpillRecord(partitions.size());
        List<PartitionSegment> segments = new ArrayList<>();
        try (FSDataOutputStream out = fs.create(hadoop(file), true)) {
            for (int p = 0; p < partitions.size(); p++) {
                long start = out.getPos();
                IFile.Writer<Text, IntWritable> writer =
                        new IFile.Writer<>(job, out, Text.class, IntWritable.class, codec(job), new Counters.Counter());
                long bytes = 0;
                for (Map.Entry<String, Integer> e : partitions.get(p).entrySet()) {
                    writer.append(new Text(e.getKey()), new IntWritable(e.getValue()));
                    bytes += KeyStrings.recordBytes(e.getKey().length());
                }
                writer.close();
                spill.putIndex(new IndexRecord(start, writer.getRawLength(), writer.getCompressedLength()), p);
                segments.add(new PartitionSegment(p, partitions.get(p).size(), bytes, start, writer.getRawLength(),
                        writer.getCompressedLength()));
            }
        }
        spill.writeToFile(hadoop(index), job);
        return new ServerMapOutput(server, file, index, segments);
    }

    static org.apache.hadoop.fs.Path hadoop(Path p) {
        return new org.apache.hadoop.fs.Path(p.toString());
    }
}
