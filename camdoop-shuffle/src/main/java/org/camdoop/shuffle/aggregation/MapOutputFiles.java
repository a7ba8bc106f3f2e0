package org.camdoop.shuffle.aggregation;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.Objects;
import java.util.Optional;
import java.util.zip.CRC32;
import org.apache.hadoop.io.SecureIOUtils;
import org.apache.hadoop.io.nativeio.NativeIO;
import org.apache.hadoop.mapred.IndexRecord;

/**
 * One map attempt's {@code file.out} and {@code file.out.index}, and how they may be opened. Files a daemon found for a
 * task ({@link #ownedBy}) are opened only if each is a regular file (no symbolic link, directory, named pipe or
 * device), owned by the user the job's containers run as, and the index is exactly as long as the job's partitions
 * need; anything else is refused with a {@link MapOutputRefusedException} naming the attempt. Files Hadoop handed us
 * in this JVM ({@link #inProcess}: local mode, tests) are trusted as Hadoop's own reduce trusts them, but still
 * checked for type and size, so nothing can block. No index is ever held in memory, whatever partition count it
 * claims: it is streamed through a 64 KB buffer to check it and keep the one record asked for.
 *
 * <p>Checks happen on the path without following links, and again after opening: a file swapped between the two is
 * refused. With Hadoop's native IO loaded, {@code file.out} is opened through {@link SecureIOUtils}, which in a secure
 * cluster checks the owner of the open descriptor (as ShuffleHandler does). Immutable and thread-safe.
 *
 * @param partitions the partitions the index must describe, or {@link #ANY_PARTITIONS} for in-process files
 * @param owner the user the files must belong to; empty for in-process files
 */
public record MapOutputFiles(String attemptId, Path file, Path index, int partitions, Optional<String> owner) {

    /** Partition count of in-process files: whatever a well-formed index holds. */
    public static final int ANY_PARTITIONS = -1;
    /** Bytes per partition in {@code file.out.index}: start offset, raw length, part length (Hadoop's SpillRecord). */
    public static final int INDEX_RECORD_BYTES = 24;
    /** The CRC-32 that ends {@code file.out.index}. */
    public static final int INDEX_CHECKSUM_BYTES = 8;
    /** Most partitions an index may describe: far above any job a daemon serves (JobSpec.MAX_REDUCES). */
    public static final int MAX_PARTITIONS = 1_000_000;
    /** Records read at once while the index is checked: 64 KB, whatever the index's size. */
    private static final int BLOCK_RECORDS = (64 << 10) / INDEX_RECORD_BYTES;

    public MapOutputFiles {
        Objects.requireNonNull(attemptId, "attemptId");
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(index, "index");
        Objects.requireNonNull(owner, "owner");
        if (partitions < ANY_PARTITIONS || partitions > MAX_PARTITIONS) {
            throw new IllegalArgumentException("bad partition count " + partitions + " for " + attemptId
                    + " (at most " + MAX_PARTITIONS + ")");
        }
    }

    /** Files a daemon derived for a task: they must be regular, owned by {@code owner} and hold {@code partitions}. */
    public static MapOutputFiles ownedBy(String owner, String attemptId, Path file, Path index, int partitions) {
        if (partitions < 0) {
            throw new IllegalArgumentException("negative partition count " + partitions + " for " + attemptId);
        }
        return new MapOutputFiles(attemptId, file, index, partitions, Optional.of(owner));
    }

    /** Files Hadoop handed over inside this JVM (local mode's {@code localMapFiles}, tests): no owner check. */
    public static MapOutputFiles inProcess(String attemptId, Path file, Path index) {
        return new MapOutputFiles(attemptId, file, index, ANY_PARTITIONS, Optional.empty());
    }

    /** Checks both files as {@link #indexRecord(int)} and {@link #openData()} would, without reading the data. */
    public void verify() throws IOException {
        scanIndex(-1);
        check(file, "file.out");
    }

    /**
     * The index record of {@code partition}, after the checks: the index's size must be exactly what the partitions
     * need, its CRC-32 must match, every segment must have non-negative offset and lengths. The whole index is
     * checked on every call (the job's user may rewrite it at any time) but streamed in fixed blocks: a job that
     * declares many partitions costs reading time, never memory.
     *
     * @throws IllegalArgumentException if the index has no such partition
     */
    public IndexRecord indexRecord(int partition) throws IOException {
        if (partition < 0) {
            throw new IllegalArgumentException("negative partition " + partition + " of " + index);
        }
        return scanIndex(partition);
    }

    /** Checks the index; returns the record of {@code wanted}, or null if {@code wanted} is -1. */
    private IndexRecord scanIndex(int wanted) throws IOException {
        PosixFileAttributes before = check(index, "file.out.index");
        long size = before.size();
        long count = checkIndexSize(size);
        if (wanted >= count) {
            throw new IllegalArgumentException(index + " has " + count + " partitions; asked for " + wanted);
        }
        try (FileChannel in = FileChannel.open(index, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            sameFile(index, before, "file.out.index");
            ByteBuffer block = ByteBuffer.allocate(BLOCK_RECORDS * INDEX_RECORD_BYTES);
            CRC32 crc = new CRC32();
            IndexRecord record = null;
            long negative = -1;
            for (long p = 0; p < count; ) {
                int n = (int) Math.min(BLOCK_RECORDS, count - p);
                readFully(in, block, n * INDEX_RECORD_BYTES, p * INDEX_RECORD_BYTES, size);
                crc.update(block.array(), 0, n * INDEX_RECORD_BYTES);
                for (int i = 0; i < n; i++, p++) {
                    long start = block.getLong();
                    long raw = block.getLong();
                    long part = block.getLong();
                    if ((start < 0 || raw < 0 || part < 0) && negative < 0) {
                        negative = p;
                    }
                    if (p == wanted) {
                        record = new IndexRecord(start, raw, part);
                    }
                }
            }
            readFully(in, block, INDEX_CHECKSUM_BYTES, count * INDEX_RECORD_BYTES, size);
            // A bad checksum is reported before a bad record, as when the index was read whole.
            if (crc.getValue() != block.getLong()) {
                throw refused("file.out.index " + index + " fails its checksum");
            }
            if (negative >= 0) {
                throw refused("file.out.index " + index + " partition " + negative
                        + " has a negative offset or length");
            }
            return record;
        }
    }

    /** The partition count of an index of {@code size} bytes, or a refusal if that size is not allowed. */
    private long checkIndexSize(long size) throws MapOutputRefusedException {
        if (partitions != ANY_PARTITIONS) {
            long expected = (long) partitions * INDEX_RECORD_BYTES + INDEX_CHECKSUM_BYTES;
            if (size != expected) {
                throw refused("file.out.index " + index + " is " + size + " bytes; " + partitions
                        + " partitions need " + expected);
            }
        } else if (size < INDEX_CHECKSUM_BYTES || (size - INDEX_CHECKSUM_BYTES) % INDEX_RECORD_BYTES != 0
                || size > (long) MAX_PARTITIONS * INDEX_RECORD_BYTES + INDEX_CHECKSUM_BYTES) {
            throw refused("file.out.index " + index + " is " + size + " bytes; an index is 8 bytes plus 24 per"
                    + " partition, at most " + MAX_PARTITIONS + " partitions");
        }
        return (size - INDEX_CHECKSUM_BYTES) / INDEX_RECORD_BYTES;
    }

    /** Fills {@code block} with the {@code length} bytes at {@code position} and flips it, or refuses at the end. */
    private void readFully(FileChannel in, ByteBuffer block, int length, long position, long size)
            throws IOException {
        block.clear().limit(length);
        while (block.hasRemaining()) {
            int read = in.read(block, position + block.position());
            if (read < 0) {
                throw refused("file.out.index " + index + " ended after " + (position + block.position()) + " of "
                        + size + " bytes");
            }
        }
        block.flip();
    }

    /** Opens {@code file.out} for reading after the checks; the caller closes the channel. */
    public FileChannel openData() throws IOException {
        PosixFileAttributes before = check(file, "file.out");
        FileChannel channel;
        if (owner.isPresent() && NativeIO.isAvailable()) {
            RandomAccessFile raf = SecureIOUtils.openForRandomRead(file.toFile(), "r", owner.get(), null);
            channel = raf.getChannel();
        } else {
            channel = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
        }
        try {
            sameFile(file, before, "file.out");
            return channel;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** The file's attributes if it is a regular file (not a link) owned by {@link #owner}; else a refusal. */
    private PosixFileAttributes check(Path path, String what) throws IOException {
        PosixFileAttributes a;
        try {
            a = Files.readAttributes(path, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            throw refused(what + " " + path + " does not exist");
        }
        if (a.isSymbolicLink()) {
            throw refused(what + " " + path + " is a symbolic link");
        }
        if (!a.isRegularFile()) {
            throw refused(what + " " + path + " is not a regular file ("
                    + (a.isDirectory() ? "a directory" : "a named pipe, socket or device") + ")");
        }
        if (owner.isPresent() && !owner.get().equals(a.owner().getName())) {
            throw refused(what + " " + path + " is owned by " + a.owner().getName() + ", not by " + owner.get());
        }
        return a;
    }

    /** After opening: the path still names the file that was checked (same device and inode, still regular). */
    private void sameFile(Path path, PosixFileAttributes before, String what) throws IOException {
        PosixFileAttributes now = Files.readAttributes(path, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (!now.isRegularFile() || !Objects.equals(before.fileKey(), now.fileKey())) {
            throw refused(what + " " + path + " was replaced while it was being opened");
        }
    }

    private MapOutputRefusedException refused(String why) {
        return new MapOutputRefusedException(attemptId, why);
    }
}
