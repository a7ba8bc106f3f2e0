package org.camdoop.shuffle.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.IFile;
import org.apache.hadoop.mapred.IndexRecord;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.SpillRecord;
import org.apache.hadoop.mapred.lib.HashPartitioner;

/**
 * Text/IntWritable map outputs for service tests, written exactly as a map task writes them (HashPartitioner, sorted by
 * Text's raw order within each partition, one IFile segment per partition, SpillRecord index), and the plain
 * in-memory reference the shuffle must reproduce.
 */
public final class WordCounts {

    private WordCounts() {
    }

    /** Text keys, IntWritable values, no combiner. */
    public static JobConf job(int reducers) {
        JobConf job = new JobConf(false);
        job.setMapOutputKeyClass(Text.class);
        job.setMapOutputValueClass(IntWritable.class);
        job.setNumReduceTasks(reducers);
        return job;
    }

    /** The same job with a summing combiner (old API). */
    public static JobConf jobWithCombiner(int reducers) {
        JobConf job = job(reducers);
        job.setCombinerClass(IntSumCombiner.class);
        return job;
    }

    /** The partition Hadoop's HashPartitioner gives {@code word}. */
    public static int partitionOf(String word, int reducers) {
        return new HashPartitioner<Text, IntWritable>().getPartition(new Text(word), null, reducers);
    }

    /** Writes {@code counts} (word -> value) as one map output with {@code job}'s partition count. */
    public static void write(JobConf job, Path file, Path index, Map<String, Integer> counts) throws IOException {
        int reducers = job.getNumReduceTasks();
        List<SortedMap<Text, Integer>> parts = new ArrayList<>();
        for (int p = 0; p < reducers; p++) {
            parts.add(new TreeMap<>());
        }
        counts.forEach((w, n) -> parts.get(partitionOf(w, reducers)).put(new Text(w), n));
        FileSystem fs = FileSystem.getLocal(job).getRaw();
        SpillRecord spill = new SpillRecord(reducers);
        try (FSDataOutputStream out = fs.create(file, true)) {
            for (int p = 0; p < reducers; p++) {
                long start = out.getPos();
                IFile.Writer<Text, IntWritable> writer =
                        new IFile.Writer<>(job, out, Text.class, IntWritable.class, null, new Counters.Counter());
                for (Map.Entry<Text, Integer> e : parts.get(p).entrySet()) {
                    writer.append(e.getKey(), new IntWritable(e.getValue()));
                }
                writer.close();
                spill.putIndex(new IndexRecord(start, writer.getRawLength(), writer.getCompressedLength()), p);
            }
        }
        spill.writeToFile(index, job);
    }

    /** Sums per word over all maps, for one partition, in Text order: what the reducer must see after summing. */
    public static SortedMap<String, Long> reference(List<Map<String, Integer>> maps, int partition, int reducers) {
        SortedMap<String, Long> out = new TreeMap<>((a, b) -> new Text(a).compareTo(new Text(b)));
        for (Map<String, Integer> m : maps) {
            m.forEach((w, n) -> {
                if (partitionOf(w, reducers) == partition) {
                    out.merge(w, (long) n, Long::sum);
                }
            });
        }
        return out;
    }

    /** Decodes a raw Text key. */
    public static String text(byte[] raw, int offset, int length) throws IOException {
        DataInputBuffer in = new DataInputBuffer();
        in.reset(raw, offset, length);
        Text t = new Text();
        t.readFields(in);
        return new String(t.getBytes(), 0, t.getLength(), StandardCharsets.UTF_8);
    }

    /** Decodes a raw IntWritable value. */
    public static int intValue(byte[] raw, int offset, int length) throws IOException {
        DataInputBuffer in = new DataInputBuffer();
        in.reset(raw, offset, length);
        IntWritable v = new IntWritable();
        v.readFields(in);
        return v.get();
    }

    /** Sums IntWritable values: the word-count combiner. */
    public static final class IntSumCombiner extends org.apache.hadoop.mapred.MapReduceBase
            implements org.apache.hadoop.mapred.Reducer<Text, IntWritable, Text, IntWritable> {
        @Override
        public void reduce(Text key, java.util.Iterator<IntWritable> values,
                org.apache.hadoop.mapred.OutputCollector<Text, IntWritable> out, org.apache.hadoop.mapred.Reporter r)
                throws IOException {
            int sum = 0;
            while (values.hasNext()) {
                sum += values.next().get();
            }
            out.collect(key, new IntWritable(sum));
        }
    }
}
