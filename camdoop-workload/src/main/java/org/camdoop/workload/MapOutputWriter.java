package org.camdoop.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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

/**
 * Writes sorted records as the final output of a map task: one IFile segment per partition (empty ones included) in
 * {@code file.out} through Hadoop's {@link IFile.Writer}, then {@code file.out.index} through {@link SpillRecord}, on
 * the raw local file system as MapTask does (no {@code .crc} side files). Reuses its buffers across records.
 */
final class MapOutputWriter {
    /** File names a map task gives its final output. */
    static final String FILE = "file.out";
    static final String INDEX = "file.out.index";

    private final JobConf job;
    private final FileSystem fs;
    private final CompressionCodec codec;
    /** One record's serialized key (a one-byte vint length, then the characters) and value, reused. */
    private final byte[] keyBuffer = new byte[1 + KeyStrings.MAX_LENGTH];
    private final byte[] valueBuffer = new byte[Integer.BYTES];
    private final DataInputBuffer key = new DataInputBuffer();
    private final DataInputBuffer value = new DataInputBuffer();

    MapOutputWriter(JobConf job) throws IOException {
        this.job = job;
        this.fs = FileSystem.getLocal(job).getRaw();
        this.codec = job.getCompressMapOutput()
                ? ReflectionUtils.newInstance(job.getMapOutputCompressorClass(null), job)
                : null;
    }

    ServerMapOutput write(int server, ServerRecords records, Path dir) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve(FILE);
        Path index = dir.resolve(INDEX);
        int reducers = job.getNumReduceTasks();
        SpillRecord spill = new SpillRecord(reducers);
        List<PartitionSegment> segments = new ArrayList<>(reducers);
        int position = 0;
        try (FSDataOutputStream out = fs.create(new org.apache.hadoop.fs.Path(file.toString()), true)) {
            for (int p = 0; p < reducers; p++) {
                long start = out.getPos();
                // null codec is IFile's own convention for "uncompressed".
                IFile.Writer<Text, IntWritable> writer =
                        new IFile.Writer<>(job, out, Text.class, IntWritable.class, codec, new Counters.Counter());
                long count = 0;
                long bytes = 0;
                for (; position < records.size() && records.partitionAt(position) == p; position++) {
                    int length = records.keyLengthAt(position);
                    // Text's serialized form: vint character count (one byte below 128) then the characters; the
                    // raw append writes exactly what append(Text, IntWritable) would, without a serializer pass.
                    keyBuffer[0] = (byte) length;
                    System.arraycopy(records.keyBytes(), records.keyOffsetAt(position), keyBuffer, 1, length);
                    int v = records.valueAt(position);
                    valueBuffer[0] = (byte) (v >>> 24);
                    valueBuffer[1] = (byte) (v >>> 16);
                    valueBuffer[2] = (byte) (v >>> 8);
                    valueBuffer[3] = (byte) v;
                    key.reset(keyBuffer, 1 + length);
                    value.reset(valueBuffer, Integer.BYTES);
                    writer.append(key, value);
                    count++;
                    bytes += KeyStrings.recordBytes(length);
                }
                writer.close();
                IndexRecord segment = new IndexRecord(start, writer.getRawLength(), writer.getCompressedLength());
                spill.putIndex(segment, p);
                segments.add(new PartitionSegment(p, count, bytes, start, segment.rawLength, segment.partLength));
            }
        }
        spill.writeToFile(new org.apache.hadoop.fs.Path(index.toString()), job);
        return new ServerMapOutput(server, file, index, segments);
    }
}
