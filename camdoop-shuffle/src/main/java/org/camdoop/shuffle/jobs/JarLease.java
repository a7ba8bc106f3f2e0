package org.camdoop.shuffle.jobs;

import java.nio.file.Path;
import java.util.List;
import org.camdoop.shuffle.protocol.JarDigest;

/**
 * A live job's pin on its jars in the {@link JarCache}: while open, none of them is evicted. Closing twice releases
 * once. Thread-safe ({@link #closed} is guarded by this object's monitor).
 */
public final class JarLease implements AutoCloseable {
    private final JarCache cache;
    private final List<JarDigest> digests;
    private final List<Path> files;
    /** Guarded by {@code this}. */
    private boolean closed;

    JarLease(JarCache cache, List<JarDigest> digests, List<Path> files) {
        this.cache = cache;
        this.digests = List.copyOf(digests);
        this.files = List.copyOf(files);
    }

    /** The pinned jars' files, in the order they were asked for. */
    public List<Path> files() {
        return files;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        cache.release(digests);
    }
}
