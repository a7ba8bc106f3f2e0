package org.camdoop.shuffle.aggregation;

import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.IndexRecord;
import org.apache.hadoop.mapred.SpillRecord;

/**
 * One partition of a finished map output ({@code file.out} plus {@code file.out.index}, as {@code MapTask} leaves them
 * on the local disk). The index is read once with Hadoop's {@link SpillRecord}; each {@link #open()} streams the
 * segment anew. Immutable; the runs it opens are single-threaded.
 */
public final class MapOutputPartitionSource implements RunSource {
    private final JobAggregationSpec spec;
    private final FileSystem fs;
    private final Path file;
    private final int partition;
    private final IndexRecord segment;

    private MapOutputPartitionSource(JobAggregationSpec spec, FileSystem fs, Path file, int partition,
            IndexRecord segment) {
        this.spec = spec;
        this.fs = fs;
        this.file = file;
        this.partition = partition;
        this.segment = segment;
    }

    /**
     * Locates {@code partition} of the local map output {@code file} through its {@code index}.
     *
     * @throws IllegalArgumentException if the index has no such partition
     */
    public static MapOutputPartitionSource locate(JobAggregationSpec spec, Path file, Path index, int partition)
            throws IOException {
        SpillRecord spills = new SpillRecord(index, spec.job());
        if (partition < 0 || partition >= spills.size()) {
            throw new IllegalArgumentException(index + " has " + spills.size() + " partitions; asked for " + partition);
        }
        return new MapOutputPartitionSource(spec, FileSystem.getLocal(spec.job()).getRaw(), file, partition,
                spills.getIndex(partition));
    }

    /** Bytes the segment occupies on disk (compressed, with its checksum). */
    public long segmentBytes() {
        return segment.partLength;
    }

    /** Bytes of the segment's records once decompressed (IFile layout, EOF marker included). */
    public long rawBytes() {
        return segment.rawLength;
    }

    @Override
    public SortedRun open() throws IOException {
        return new MapOutputPartitionRun(spec, fs, file, partition, segment);
    }
}
