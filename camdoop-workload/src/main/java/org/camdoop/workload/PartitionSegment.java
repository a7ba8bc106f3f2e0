package org.camdoop.workload;

/**
 * One partition of one generated map output, as written.
 *
 * @param partition the reducer it belongs to
 * @param records records in the segment (keys are distinct within it)
 * @param recordBytes the records' bytes in IFile record layout, without the EOF marker and checksum: the segment's
 *     share of the intermediate data
 * @param startOffset where the segment starts in {@code file.out} (from the index)
 * @param rawLength the segment's uncompressed length as the index records it (records, EOF marker, checksum)
 * @param partLength the segment's length on disk as the index records it
 */
public record PartitionSegment(int partition, long records, long recordBytes, long startOffset, long rawLength,
        long partLength) {
}
