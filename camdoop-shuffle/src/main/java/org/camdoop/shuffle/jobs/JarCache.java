package org.camdoop.shuffle.jobs;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.camdoop.shuffle.protocol.JarDigest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A directory of jars, each named by the SHA-256 of its bytes ({@code <digest>.jar}). A jar enters only after its
 * bytes are verified against the digest it is stored under, by writing a temporary file in the same directory and
 * renaming it into place, so no reader ever sees a partial or wrong jar. Concurrent puts of the same digest are safe:
 * each writes its own temporary file, and the first rename wins.
 *
 * <p>Jars pinned by a live job ({@link #tryAcquire}) are never evicted; the others are evicted least recently used
 * first once the cache holds more than its byte bound, except the jar just stored (so a single jar larger than the
 * bound still reaches its job). If pinned jars alone exceed the bound the cache stays over it rather than break a
 * running job. The bound should comfortably exceed the jars of the largest job: a job's missing jars are stored one
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

    private JarCache(Path dir, long maxBytes) {
        this.dir = dir;
        this.maxBytes = maxBytes;
    }

    /**
     * The cache in {@code dir} (created if absent), bounded to {@code maxBytes}. Jars already there are kept (their
     * names are trusted: the directory is the daemon's own); leftover temporary files from a crash are deleted.
     */
    public static JarCache open(Path dir, long maxBytes) throws IOException {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("jar cache bound must be positive: " + maxBytes);
        }
        Files.createDirectories(dir);
        JarCache cache = new JarCache(dir, maxBytes);
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

    /** The cache configured by {@code config}. */
    public static JarCache open(JobsConfig config) throws IOException {
        return open(config.jarCacheDir(), config.jarCacheMaxBytes());
    }

    private synchronized void adopt(Path f, String name) throws IOException {
        try {
            JarDigest d = new JarDigest(name);
            long size = Files.size(f);
            entries.put(d, new Entry(size));
            totalBytes += size;
            entries.get(d).lastUse = ++useClock;
        } catch (IllegalArgumentException notADigest) {
            LOG.warn("ignoring {} in the jar cache: its name is not a digest", f);
        }
    }

    /** Stores {@code bytes} as the jar {@code expected}; see {@link #put(JarDigest, InputStream)}. */
    public Path put(JarDigest expected, byte[] bytes) throws IOException {
        return put(expected, new ByteArrayInputStream(bytes));
    }

    /** Copies the local jar file {@code jar} into the cache and returns its digest. */
    public JarDigest putFile(Path jar) throws IOException {
        JarDigest digest = JarDigest.of(jar);
        try (InputStream in = Files.newInputStream(jar)) {
            put(digest, in);
        }
        return digest;
    }

    /**
     * Stores the jar read from {@code in} under {@code expected} and returns its path.
     *
     * @throws IOException if the bytes do not hash to {@code expected} (nothing is stored) or the write fails
     */
    public Path put(JarDigest expected, InputStream in) throws IOException {
        Path temp = Files.createTempFile(dir, TEMP_PREFIX, SUFFIX);
        try {
            MessageDigest md = JarDigest.sha256();
            long size;
            try (OutputStream out = new DigestOutputStream(Files.newOutputStream(temp), md)) {
                size = in.transferTo(out);
            }
            JarDigest actual = JarDigest.fromHash(md.digest());
            if (!actual.equals(expected)) {
                throw new IOException("jar digest mismatch: expected " + expected + ", got " + actual);
            }
            return install(expected, temp, size);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    private synchronized Path install(JarDigest digest, Path temp, long size) throws IOException {
        Path target = file(digest);
        if (entries.get(digest) == null) {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            entries.put(digest, new Entry(size));
            totalBytes += size;
        }
        entries.get(digest).lastUse = ++useClock;
        evictUnpinned(Optional.of(digest));
        return target;
    }

    /** Evicts unpinned jars but {@code keep}, oldest use first, until within the bound. Caller holds the monitor. */
    private void evictUnpinned(Optional<JarDigest> keep) {
        if (totalBytes <= maxBytes) {
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
        while (totalBytes > maxBytes && it.hasNext()) {
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
