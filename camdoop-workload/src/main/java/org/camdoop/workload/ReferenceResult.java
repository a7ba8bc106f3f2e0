package org.camdoop.workload;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.io.WritableUtils;

/**
 * What the shuffle must deliver to the reducers of a workload once every key is fully combined, computed the plain way
 * (read every record of every map output, group, sum, sort: see {@link PartitionReducer}), summarised as the
 * {@link OutputDigest} of the whole reduce input and the bytes each reducer receives. Those bytes are the lower bound
 * for {@code bytes_into_roots}: whatever the aggregation, the root of partition p receives at least
 * {@link #outputBytes(int)} (fully combined) and the stock shuffle sends it {@code manifest.intermediateBytes(p)} (no
 * combining). Immutable.
 */
public final class ReferenceResult {
    /**
     * The fully combined records of one partition.
     *
     * @param partition the reducer
     * @param records distinct keys in it
     * @param bytes the records in IFile record layout (the unit of the manifest's intermediate bytes)
     */
    public record PartitionOutput(int partition, long records, long bytes) {
    }

    /** One reduced record (tests and diagnostics). */
    public record KeyCount(String key, int count) {
    }

    private final String digest;
    private final List<PartitionOutput> partitions;
    private final long intermediateBytes;

    private ReferenceResult(String digest, List<PartitionOutput> partitions, long intermediateBytes) {
        this.digest = digest;
        this.partitions = List.copyOf(partitions);
        this.intermediateBytes = intermediateBytes;
    }

    /** Reads the map outputs of {@code manifest} back and computes the reference, one partition in memory at a time. */
    public static ReferenceResult compute(WorkloadManifest manifest) throws IOException {
        PartitionReducer reducer = new PartitionReducer(manifest.spec().mapOutputJob());
        OutputDigest digest = new OutputDigest(manifest.partitions());
        byte[] value = new byte[Integer.BYTES];
        List<PartitionOutput> outputs = new ArrayList<>();
        for (int p = 0; p < manifest.partitions(); p++) {
            int partition = p;
            long[] recordsAndBytes = new long[2];
            reducer.reduce(manifest, p, (keys, offset, length, sum) -> {
                writeInt(sum, value);
                digest.update(partition, keys, offset, length, value, 0, value.length);
                recordsAndBytes[0]++;
                recordsAndBytes[1] += WritableUtils.getVIntSize(length) + WritableUtils.getVIntSize(value.length)
                        + length + value.length;
            });
            outputs.add(new PartitionOutput(p, recordsAndBytes[0], recordsAndBytes[1]));
        }
        return new ReferenceResult(digest.finish(), outputs, manifest.intermediateBytes());
    }

    /** The reduced records of {@code partition} in key order, keys decoded as Text (for small workloads). */
    public static List<KeyCount> records(WorkloadManifest manifest, int partition) throws IOException {
        List<KeyCount> out = new ArrayList<>();
        new PartitionReducer(manifest.spec().mapOutputJob()).reduce(manifest, partition, (keys, offset, length, sum) -> {
            // A serialized Text is a vint byte count followed by UTF-8.
            int prefix = WritableUtils.decodeVIntSize(keys[offset]);
            out.add(new KeyCount(new String(keys, offset + prefix, length - prefix, StandardCharsets.UTF_8), sum));
        });
        return out;
    }

    /**
     * Fully combined bytes of {@code partition} over every map output except {@code server}'s: what a root on
     * {@code server} must receive over its links at least, since it holds its own map output locally.
     */
    public static long outputBytesWithout(WorkloadManifest manifest, int partition, int server) throws IOException {
        List<ServerMapOutput> others = new ArrayList<>(manifest.servers());
        others.removeIf(s -> s.server() == server);
        long[] bytes = new long[1];
        new PartitionReducer(manifest.spec().mapOutputJob()).reduce(new WorkloadManifest(manifest.spec(), others),
                partition, (keys, offset, length, sum) -> bytes[0] += WritableUtils.getVIntSize(length)
                        + WritableUtils.getVIntSize(Integer.BYTES) + length + Integer.BYTES);
        return bytes[0];
    }

    private static void writeInt(int v, byte[] dst) {
        dst[0] = (byte) (v >>> 24);
        dst[1] = (byte) (v >>> 16);
        dst[2] = (byte) (v >>> 8);
        dst[3] = (byte) v;
    }

    /** SHA-256 of the reduce input in {@link OutputDigest}'s format, 64 lowercase hex digits. */
    public String digest() {
        return digest;
    }

    /** Per partition, in partition order. */
    public List<PartitionOutput> partitions() {
        return partitions;
    }

    /** Fully combined bytes the root of {@code partition} receives at least. */
    public long outputBytes(int partition) {
        return partitions.get(partition).bytes();
    }

    /** Fully combined bytes over all partitions. */
    public long outputBytes() {
        return partitions.stream().mapToLong(PartitionOutput::bytes).sum();
    }

    /** Distinct keys over all partitions: the reducers' output records. */
    public long records() {
        return partitions.stream().mapToLong(PartitionOutput::records).sum();
    }

    /** The lower bound on the busiest root's incoming bytes: the largest partition's fully combined bytes. */
    public long busiestRootLowerBound() {
        return partitions.stream().mapToLong(PartitionOutput::bytes).max().orElse(0);
    }

    /** All map outputs' record bytes: what crosses the network with no combining at all. */
    public long intermediateBytes() {
        return intermediateBytes;
    }
}
