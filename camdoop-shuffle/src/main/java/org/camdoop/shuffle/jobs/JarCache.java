package org.camdoop.shuffle.jobs;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.camdoop.shuffle.protocol.JarDigest;
import org.camdoop.shuffle.protocol.UnixPeers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A directory of jars, each named by the SHA-256 of its bytes ({@code <digest>.jar}). A jar enters only after its
 * bytes are verified against the digest it is stored under, by writing a temporary file in the same directory and
 * renaming it into place, so no reader ever sees a partial or wrong jar. Concurrent puts of the same digest are safe:
 * each writes its own temporary file, and the first rename wins.
 *
 * <p>Jars pinned by a live job ({@link #tryAcquire}) are never evicted; the others are evicted least recently used
 * first once the cached jars and the uploads in progress ({@link #begin} reserves a jar's size before its first byte)
 * hold more than the byte bound. No single jar may exceed the bound, and an upload that finds no room (pinned jars
 * and other uploads) is refused, so the directory never holds more than the bound. The bound should comfortably exceed the jars of the largest job: a job's missing jars are stored one
 * by one before it registers, and an unpinned one may be evicted by the next.
 *
 * <p>Thread-safe: {@link #entries} and {@link #totalBytes} are guarded by this object's monitor; file writes happen
 * outside it, renames and deletions inside it. Lock order: a caller may hold its own lock while calling in (the
 * registry does); this class never calls out while holding its monitor.
 */
public final class JarCache {
    private static final Logger LOG = LoggerFactory.getLogger(JarCache.class);
    private static final String SUFFIX = ".jar";
    private static final String TEMP_PREFIX = ".incoming-";

    private final Path dir;
    private final long maxBytes;
    private final int maxUploads;
    /** Uploads in progress. Guarded by {@code this}. */
    private int uploads;
    /** Bytes reserved by uploads in progress. Guarded by {@code this}. */
    private long reservedBytes;
    /** Cached jars. Guarded by {@code this}. */
    private final Map<JarDigest, Entry> entries = new HashMap<>();
    /** Counts uses (stores and pins) to order jars by last use; a release is not a use. Guarded by {@code this}. */
    private long useClock;
    /** Sum of the sizes in {@link #entries}. Guarded by {@code this}. */
    private long totalBytes;

    private static final class Entry {
        final long bytes;
        /** Live jobs using the jar. Guarded by the cache's monitor. */
        int pins;
        /** {@link #useClock} at the last use. Guarded by the cache's monitor. */
        long lastUse;

        Entry(long bytes) {
            this.bytes = bytes;
        }
    }

    private JarCache(Path dir, long maxBytes, int maxUploads) {
        this.dir = dir;
        this.maxBytes = maxBytes;
        this.maxUploads = maxUploads;
    }

    /**
     * The cache in {@code dir}, bounded to {@code maxBytes} (uploads in progress included) with at most
     * {@code maxUploads} uploads at once. An absent directory is created with mode 700; an existing one must be owned
     * by the daemon's user with mode 700. Jars already there are re-hashed and kept only if their bytes match their
     * names; leftover temporary files from a crash are deleted.
     *
     * @throws IOException if the directory is someone else's or open to others: the daemon must not start on it
     */
    public static JarCache open(Path dir, long maxBytes, int maxUploads) throws IOException {
        if (maxBytes <= 0 || maxUploads <= 0) {
            throw new IllegalArgumentException("jar cache bounds must be positive: " + maxBytes + ", " + maxUploads);
        }
        checkOrCreate(dir);
        JarCache cache = new JarCache(dir, maxBytes, maxUploads);
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path f : files) {
                String name = f.getFileName().toString();
                if (name.startsWith(TEMP_PREFIX)) {
                    Files.deleteIfExists(f);
                } else if (name.endsWith(SUFFIX)) {
                    cache.adopt(f, name.substring(0, name.length() - SUFFIX.length()));
                }
            }
        }
        synchronized (cache) {
            cache.evictUnpinned(Optional.empty());
        }
        return cache;
    }

    /** The cache with the default upload bound. */
    public static JarCache open(Path dir, long maxBytes) throws IOException {
        return open(dir, maxBytes, JobsConfig.JAR_CACHE_MAX_UPLOADS_DEFAULT);
    }

    /** The cache configured by {@code config}, in {@code fallbackDir} unless the configuration names a directory. */
    public static JarCache open(JobsConfig config, Path fallbackDir) throws IOException {
        return open(config.jarCacheDir(fallbackDir), config.jarCacheMaxBytes(), config.jarCacheMaxUploads());
    }

    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");

    private static void checkOrCreate(Path dir) throws IOException {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            Files.createDirectories(dir.toAbsolutePath().getParent());
            try {
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
                Files.setPosixFilePermissions(dir, OWNER_ONLY);
                return;
            } catch (java.nio.file.FileAlreadyExistsException raced) {
                // Someone created it meanwhile: check it like any existing directory.
            }
        }
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException("jar cache directory " + dir + " is not a directory: refusing to start");
        }
        String owner = UnixPeers.ownerOf(dir);
        String me = UnixPeers.processUser();
        if (!owner.equals(me)) {
            throw new IOException("jar cache directory " + dir + " is owned by " + owner + ", not the daemon's user "
                    + me + ": refusing to start");
        }
        Set<PosixFilePermission> mode = Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS);
        if (!mode.equals(OWNER_ONLY)) {
            throw new IOException("jar cache directory " + dir + " has mode " + PosixFilePermissions.toString(mode)
                    + ", not rwx------ (700): refusing to start");
        }
    }

    private void adopt(Path f, String name) throws IOException {
        JarDigest d;
        try {
            d = new JarDigest(name);
        } catch (IllegalArgumentException notADigest) {
            LOG.warn("ignoring {} in the jar cache: its name is not a digest", f);
            return;
        }
        if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS) || !JarDigest.of(f).equals(d)) {
            LOG.warn("deleting {} from the jar cache: its bytes do not hash to its name", f);
            Files.deleteIfExists(f);
            return;
        }
        long size = Files.size(f);
        synchronized (this) {
            entries.put(d, new Entry(size));
            totalBytes += size;
            entries.get(d).lastUse = ++useClock;
        }
    }

    /** Stores {@code bytes} as the jar {@code expected}; see {@link #begin}. */
    public Path put(JarDigest expected, byte[] bytes) throws IOException {
        try (Upload u = begin(expected, bytes.length)) {
            u.write(bytes, 0, bytes.length);
            return u.finish();
        }
    }

    /** Copies the local jar file {@code jar} into the cache and returns its digest. */
    public JarDigest putFile(Path jar) throws IOException {
        JarDigest digest = JarDigest.of(jar);
        try (InputStream in = Files.newInputStream(jar); Upload u = begin(digest, Files.size(jar))) {
            byte[] piece = new byte[1 << 16];
            int n;
            while ((n = in.read(piece)) > 0) {
                u.write(piece, 0, n);
            }
            u.finish();
        }
        return digest;
    }

    /**
     * Starts storing the jar {@code expected} of {@code size} bytes: the bytes are reserved in the bound (evicting
     * unpinned jars as needed) and written to a temporary file as they come. Close the upload in every case.
     *
     * @throws IOException with an exact message if the jar alone exceeds the bound, {@link #maxUploads} uploads are in
     *     progress, or pinned jars and other uploads leave no room
     */
    public Upload begin(JarDigest expected, long size) throws IOException {
        synchronized (this) {
            if (size < 0 || size > maxBytes) {
                throw new IOException("jar " + expected + " of " + size + " bytes exceeds the jar cache bound of "
                        + maxBytes + " bytes (" + JobsConfig.JAR_CACHE_MAX_BYTES + ")");
            }
            if (uploads >= maxUploads) {
                throw new FullException("jar " + expected + " refused: " + maxUploads + " jar uploads in progress ("
                        + JobsConfig.JAR_CACHE_MAX_UPLOADS + ")");
            }
            reservedBytes += size;
            evictUnpinned(Optional.empty());
            if (totalBytes + reservedBytes > maxBytes) {
                reservedBytes -= size;
                throw new FullException("jar " + expected + " refused: the jar cache is full (" + totalBytes
                        + " bytes of jars in use, " + reservedBytes + " bytes being uploaded, bound " + maxBytes + ")");
            }
            uploads++;
        }
        try {
            return new Upload(expected, size, Files.createTempFile(dir, TEMP_PREFIX, SUFFIX));
        } catch (IOException | RuntimeException e) {
            synchronized (this) {
                uploads--;
                reservedBytes -= size;
            }
            throw e;
        }
    }

    /**
     * A jar refused for want of room or of an upload slot, not for what it is: the same jar may be taken later (other
     * uploads end, jobs end and unpin theirs).
     */
    public static final class FullException extends IOException {
        FullException(String message) {
            super(message);
        }
    }

    /** One jar being stored: written in pieces, then checked against its digest and installed. Single thread. */
    public final class Upload implements AutoCloseable {
        private final JarDigest expected;
        private final long size;
        private final Path temp;
        private final MessageDigest md = JarDigest.sha256();
        private final OutputStream out;
        private long written;
        private boolean done;

        private Upload(JarDigest expected, long size, Path temp) throws IOException {
            this.expected = expected;
            this.size = size;
            this.temp = temp;
            this.out = new DigestOutputStream(Files.newOutputStream(temp), md);
        }

        /** The jar being stored. */
        public JarDigest digest() {
            return expected;
        }

        /** The bytes still expected. */
        public long remaining() {
            return size - written;
        }

        /** Appends the next bytes; more than the announced size is an error. */
        public void write(byte[] b, int off, int len) throws IOException {
            if (len > size - written) {
                throw new IOException("jar " + expected + " sent more than its " + size + " bytes");
            }
            out.write(b, off, len);
            written += len;
        }

        /**
         * Checks the bytes against the digest and installs the jar.
         *
         * @throws IOException if fewer bytes came than announced or they do not hash to the digest (nothing stored)
         */
        public Path finish() throws IOException {
            out.close();
            if (written != size) {
                throw new IOException("jar " + expected + " ended after " + written + " of " + size + " bytes");
            }
            JarDigest actual = JarDigest.fromHash(md.digest());
            if (!actual.equals(expected)) {
                throw new IOException("jar digest mismatch: expected " + expected + ", got " + actual);
            }
            Path p = install(expected, temp, size);
            done = true;
            return p;
        }

        @Override
        public void close() throws IOException {
            try {
                out.close();
                Files.deleteIfExists(temp);
            } finally {
                synchronized (JarCache.this) {
                    uploads--;
                    reservedBytes -= size;
                    if (!done) {
                        evictUnpinned(Optional.empty());
                    }
                }
            }
        }
    }

    private synchronized Path install(JarDigest digest, Path temp, long size) throws IOException {
        Path target = file(digest);
        if (entries.get(digest) == null) {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            entries.put(digest, new Entry(size));
            totalBytes += size;
            reservedBytes -= size; // counted in totalBytes now; close() takes the reservation back
            try {
                evictUnpinned(Optional.of(digest));
            } finally {
                reservedBytes += size;
            }
        }
        entries.get(digest).lastUse = ++useClock;
        return target;
    }

    /** Evicts unpinned jars but {@code keep}, oldest use first, until within the bound. Caller holds the monitor. */
    private void evictUnpinned(Optional<JarDigest> keep) {
        if (totalBytes + reservedBytes <= maxBytes) {
            return;
        }
        List<Map.Entry<JarDigest, Entry>> candidates = new ArrayList<>();
        for (Map.Entry<JarDigest, Entry> e : entries.entrySet()) {
            if (e.getValue().pins == 0 && !keep.equals(Optional.of(e.getKey()))) {
                candidates.add(e);
            }
        }
        candidates.sort(Comparator.comparingLong(e -> e.getValue().lastUse));
        Iterator<Map.Entry<JarDigest, Entry>> it = candidates.iterator();
        while (totalBytes + reservedBytes > maxBytes && it.hasNext()) {
            Map.Entry<JarDigest, Entry> e = it.next();
            try {
                Files.deleteIfExists(file(e.getKey()));
            } catch (IOException failed) {
                LOG.warn("could not delete evicted jar {}", file(e.getKey()), failed);
            }
            totalBytes -= e.getValue().bytes;
            entries.remove(e.getKey());
        }
    }

    public synchronized boolean has(JarDigest digest) {
        return entries.containsKey(digest);
    }

    /** The file of a cached jar, if cached. */
    public synchronized Optional<Path> path(JarDigest digest) {
        return entries.get(digest) == null ? Optional.empty() : Optional.of(file(digest));
    }

    /** Which of {@code digests} are not cached, in their order: what to fetch before the job can run here. */
    public synchronized List<JarDigest> missing(List<JarDigest> digests) {
        List<JarDigest> out = new ArrayList<>();
        for (JarDigest d : digests) {
            if (!entries.containsKey(d)) {
                out.add(d);
            }
        }
        return out;
    }

    /**
     * Pins {@code digests} against eviction and returns their files in order, or nothing if any is not cached (then
     * nothing is pinned). Release the pin with {@link JarLease#close()}.
     */
    public synchronized Optional<JarLease> tryAcquire(List<JarDigest> digests) {
        List<Path> files = new ArrayList<>();
        for (JarDigest d : digests) {
            if (!entries.containsKey(d)) {
                return Optional.empty();
            }
            files.add(file(d));
        }
        for (JarDigest d : digests) {
            Entry e = entries.get(d);
            e.pins++;
            e.lastUse = ++useClock;
        }
        return Optional.of(new JarLease(this, digests, files));
    }

    synchronized void release(List<JarDigest> digests) {
        for (JarDigest d : digests) {
            Entry e = entries.get(d);
            if (e != null && e.pins > 0) {
                e.pins--;
            }
        }
        evictUnpinned(Optional.empty());
    }

    /** Bytes of all cached jars. */
    public synchronized long totalBytes() {
        return totalBytes;
    }

    public long maxBytes() {
        return maxBytes;
    }

    private Path file(JarDigest digest) {
        return dir.resolve(digest.hex() + SUFFIX);
    }
}
