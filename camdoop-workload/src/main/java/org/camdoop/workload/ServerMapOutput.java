package org.camdoop.workload;

import java.nio.file.Path;
import java.util.List;

/**
 * One server's generated map output: {@code file.out} and {@code file.out.index} as a map task leaves them, and what
 * each partition holds.
 *
 * @param server the server's number, 0..N-1
 * @param file the map output data file
 * @param index its index (Hadoop's SpillRecord format)
 * @param partitions one entry per reducer, in partition order
 */
public record ServerMapOutput(int server, Path file, Path index, List<PartitionSegment> partitions) {
    public ServerMapOutput {
        partitions = List.copyOf(partitions);
    }

    public long records() {
        return partitions.stream().mapToLong(PartitionSegment::records).sum();
    }

    /** This server's intermediate bytes (IFile record layout). */
    public long recordBytes() {
        return partitions.stream().mapToLong(PartitionSegment::recordBytes).sum();
    }
}
