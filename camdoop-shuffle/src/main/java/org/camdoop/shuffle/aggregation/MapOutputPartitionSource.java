package org.camdoop.shuffle.aggregation;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.hadoop.mapred.IndexRecord;

/**
 * One partition of a finished map output ({@code file.out} plus {@code file.out.index}, as {@code MapTask} leaves them
 * on the local disk). The index is checked once ({@link MapOutputFiles#indexRecord(int)}); each {@link #open()}
 * opens the data file anew, with the same checks, and streams the segment. Immutable; the runs it opens are
 * single-threaded.
 */
public final class MapOutputPartitionSource implements RunSource {
    private final JobAggregationSpec spec;
    private final MapOutputFiles files;
    private final int partition;
    private final IndexRecord segment;

    private MapOutputPartitionSource(JobAggregationSpec spec, MapOutputFiles files, int partition,
            IndexRecord segment) {
        this.spec = spec;
        this.files = files;
        this.partition = partition;
        this.segment = segment;
    }

    /**
     * Locates {@code partition} of {@code files} through their index.
     *
     * @throws MapOutputRefusedException if the files fail their checks
     * @throws IllegalArgumentException if the index has no such partition
     */
    public static MapOutputPartitionSource locate(JobAggregationSpec spec, MapOutputFiles files, int partition)
            throws IOException {
        return new MapOutputPartitionSource(spec, files, partition, files.indexRecord(partition));
    }

    /** {@link #locate(JobAggregationSpec, MapOutputFiles, int)} for files handed over in this JVM (tests). */
    public static MapOutputPartitionSource locate(JobAggregationSpec spec, org.apache.hadoop.fs.Path file,
            org.apache.hadoop.fs.Path index, int partition) throws IOException {
        return locate(spec, MapOutputFiles.inProcess(file.getName(), Path.of(file.toUri().getPath()),
                Path.of(index.toUri().getPath())), partition);
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
        return new MapOutputPartitionRun(spec, files, partition, segment);
    }
}
