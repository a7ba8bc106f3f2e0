package org.camdoop.shuffle.aggregation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32;
import org.apache.hadoop.mapred.IndexRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Indexes that claim huge partition counts, as a job's own map task can write them: real sparse files, so a claim of
 * gigabytes costs the test no disk. An index is refused by its size before any read, or streamed: never held.
 */
class MapOutputFilesTest {
    private static final String ATTEMPT = "attempt_1700000000000_0042_m_000001_0";
    /** A partition deep inside a million-partition index, in its 285th 64 KB block. */
    private static final int DEEP = 777_777;

    @TempDir
    Path dir;

    /** A sparse index of {@code partitions} zero records, {@code DEEP}'s set if it exists, and a valid CRC-32. */
    private Path sparseIndex(long partitions) throws IOException {
        return sparseIndex(partitions, true);
    }

    private Path sparseIndex(long partitions, boolean checksum) throws IOException {
        Path index = dir.resolve("file.out.index");
        long records = partitions * MapOutputFiles.INDEX_RECORD_BYTES;
        try (RandomAccessFile f = new RandomAccessFile(index.toFile(), "rw")) {
            f.setLength(records + MapOutputFiles.INDEX_CHECKSUM_BYTES);
            if (DEEP < partitions) {
                f.seek((long) DEEP * MapOutputFiles.INDEX_RECORD_BYTES);
                f.writeLong(4096);
                f.writeLong(700);
                f.writeLong(300);
            }
            if (checksum) {
                f.seek(records);
                f.writeLong(crcOf(index, records));
            }
        }
        Files.createFile(dir.resolve("file.out"));
        return index;
    }

    private static long crcOf(Path file, long bytes) throws IOException {
        CRC32 crc = new CRC32();
        byte[] buffer = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            for (long left = bytes; left > 0; ) {
                int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
                crc.update(buffer, 0, n);
                left -= n;
            }
        }
        return crc.getValue();
    }

    private MapOutputFiles owned(Path index, int partitions) throws IOException {
        return MapOutputFiles.ownedBy(Files.getOwner(index).getName(), ATTEMPT, dir.resolve("file.out"), index,
                partitions);
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    @Test
    void anInProcessIndexClaimingTwoGigabytesIsRefusedBeforeAnyRead() throws Exception {
        // Refused by its size alone, so its checksum (2 GB to compute) does not matter.
        Path index = sparseIndex(89_000_000, false);
        MapOutputFiles files = MapOutputFiles.inProcess(ATTEMPT, dir.resolve("file.out"), index);

        MapOutputRefusedException e = assertThrows(MapOutputRefusedException.class, () -> files.indexRecord(0));
        assertEquals("map output of " + ATTEMPT + " refused: file.out.index " + index + " is 2136000008 bytes; an"
                + " index is 8 bytes plus 24 per partition, at most 1000000 partitions", e.getMessage());
    }

    @Test
    void noDaemonFileMayClaimMoreThanAMillionPartitions() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MapOutputFiles.ownedBy("alice", ATTEMPT, dir.resolve("file.out"),
                        dir.resolve("file.out.index"), 89_000_000));
        assertEquals("bad partition count 89000000 for " + ATTEMPT + " (at most 1000000)", e.getMessage());
    }

    @Test
    void aMillionPartitionIndexIsStreamedThroughAFixedBufferNotHeld() throws Exception {
        Path index = sparseIndex(MapOutputFiles.MAX_PARTITIONS);
        MapOutputFiles files = owned(index, MapOutputFiles.MAX_PARTITIONS);
        files.verify();

        long before = allocatedBytes();
        IndexRecord deep = files.indexRecord(DEEP);
        long allocated = allocatedBytes() - before;

        assertEquals(4096, deep.startOffset);
        assertEquals(700, deep.rawLength);
        assertEquals(300, deep.partLength);
        assertEquals(0, files.indexRecord(MapOutputFiles.MAX_PARTITIONS - 1).partLength);
        // The index is 24 MB; reading it whole took that and a million IndexRecords.
        assertTrue(allocated < 1 << 20, "allocated " + allocated + " bytes to read one record");
    }

    @Test
    void aBadChecksumOrRecordFarIntoTheIndexIsStillFound() throws Exception {
        Path index = sparseIndex(MapOutputFiles.MAX_PARTITIONS);
        try (RandomAccessFile f = new RandomAccessFile(index.toFile(), "rw")) {
            f.seek(900_000L * MapOutputFiles.INDEX_RECORD_BYTES + 8);
            f.writeLong(-1); // partition 900000's raw length
        }
        MapOutputFiles files = owned(index, MapOutputFiles.MAX_PARTITIONS);
        assertEquals("map output of " + ATTEMPT + " refused: file.out.index " + index + " fails its checksum",
                assertThrows(MapOutputRefusedException.class, () -> files.indexRecord(DEEP)).getMessage());

        try (RandomAccessFile f = new RandomAccessFile(index.toFile(), "rw")) {
            long records = (long) MapOutputFiles.MAX_PARTITIONS * MapOutputFiles.INDEX_RECORD_BYTES;
            f.seek(records);
            f.writeLong(crcOf(index, records));
        }
        assertEquals("map output of " + ATTEMPT + " refused: file.out.index " + index + " partition 900000 has a"
                + " negative offset or length", assertThrows(MapOutputRefusedException.class, files::verify)
                        .getMessage());
    }

    @Test
    void aPartitionOutsideTheIndexIsAnError() throws Exception {
        Path index = sparseIndex(2);
        MapOutputFiles files = owned(index, 2);
        assertEquals(index + " has 2 partitions; asked for 2",
                assertThrows(IllegalArgumentException.class, () -> files.indexRecord(2)).getMessage());
        assertEquals("negative partition -1 of " + index,
                assertThrows(IllegalArgumentException.class, () -> files.indexRecord(-1)).getMessage());
    }
}
