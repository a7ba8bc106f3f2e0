package org.camdoop.workload;

import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.mapred.IFile;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.util.IndexedSortable;
import org.apache.hadoop.util.QuickSort;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * The plain in-memory reduce of one partition: reads that partition's segment from every map output with Hadoop's own
 * {@link IFile.Reader}, keeps all records, sorts them with the job's key comparator, and sums the IntWritable values
 * of equal keys. Deliberately shares nothing with the engine under test (no merge, no combiner runner), so it can
 * serve as the reference. Memory is about the partition's intermediate bytes plus 16 bytes per record.
 */
final class PartitionReducer implements IndexedSortable {
    /** Receives the reduced records of a partition in key order. */
    interface Visitor {
        void record(byte[] keys, int keyOffset, int keyLength, int sum);
    }

    private final JobConf job;
    private final RawComparator<?> comparator;
    private final CompressionCodec codec;
    private byte[] keys = new byte[1 << 16];
    private int keysUsed;
    private int[] keyOffset = new int[1 << 12];
    private int[] keyLength = new int[1 << 12];
    private int[] value = new int[1 << 12];
    private int[] order = new int[1 << 12];
    private int size;

    PartitionReducer(JobConf job) {
        this.job = job;
        this.comparator = job.getOutputKeyComparator();
        this.codec = job.getCompressMapOutput()
                ? ReflectionUtils.newInstance(job.getMapOutputCompressorClass(null), job)
                : null;
    }

    /** Reduces {@code partition} over every map output of {@code manifest} and visits the result in key order. */
    void reduce(WorkloadManifest manifest, int partition, Visitor visitor) throws IOException {
        keysUsed = 0;
        size = 0;
        FileSystem fs = FileSystem.getLocal(job).getRaw();
        DataInputBuffer key = new DataInputBuffer();
        DataInputBuffer val = new DataInputBuffer();
        for (ServerMapOutput server : manifest.servers()) {
            PartitionSegment segment = server.partitions().get(partition);
            FSDataInputStream in = fs.open(new org.apache.hadoop.fs.Path(server.file().toString()));
            in.seek(segment.startOffset());
            IFile.Reader<?, ?> reader = new IFile.Reader<>(job, in, segment.partLength(), codec, null);
            try {
                while (reader.nextRawKey(key)) {
                    reader.nextRawValue(val);
                    add(key, val, server);
                }
            } finally {
                reader.close();
            }
        }
        if (size > 1) {
            new QuickSort().sort(this, 0, size); // it rejects an empty range
        }
        int i = 0;
        while (i < size) {
            int first = order[i];
            int sum = 0;
            for (; i < size && compareRecords(order[i], first) == 0; i++) {
                sum += value[order[i]];
            }
            visitor.record(keys, keyOffset[first], keyLength[first], sum);
        }
    }

    private void add(DataInputBuffer key, DataInputBuffer val, ServerMapOutput server) {
        int length = key.getLength() - key.getPosition();
        if (val.getLength() - val.getPosition() != Integer.BYTES) {
            throw new IllegalStateException(server.file() + ": a value is not a 4-byte IntWritable");
        }
        while (keysUsed + length > keys.length) {
            keys = Arrays.copyOf(keys, keys.length * 2);
        }
        if (size == order.length) {
            int capacity = size * 2;
            keyOffset = Arrays.copyOf(keyOffset, capacity);
            keyLength = Arrays.copyOf(keyLength, capacity);
            value = Arrays.copyOf(value, capacity);
            order = Arrays.copyOf(order, capacity);
        }
        System.arraycopy(key.getData(), key.getPosition(), keys, keysUsed, length);
        byte[] v = val.getData();
        int p = val.getPosition();
        value[size] = ((v[p] & 0xFF) << 24) | ((v[p + 1] & 0xFF) << 16) | ((v[p + 2] & 0xFF) << 8) | (v[p + 3] & 0xFF);
        keyOffset[size] = keysUsed;
        keyLength[size] = length;
        order[size] = size;
        keysUsed += length;
        size++;
    }

    /** Compares records {@code a} and {@code b} (record indices, not sorted positions) by key. */
    private int compareRecords(int a, int b) {
        return comparator.compare(keys, keyOffset[a], keyLength[a], keys, keyOffset[b], keyLength[b]);
    }

    @Override
    public int compare(int i, int j) {
        return compareRecords(order[i], order[j]);
    }

    @Override
    public void swap(int i, int j) {
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
}
