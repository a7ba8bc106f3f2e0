package org.camdoop.shuffle.jobs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The class loader of one job's user classes: a parent-first {@link URLClassLoader} over the job's cached jars. Parent
 * first because the daemon's class path holds Hadoop and the job's jars only add user classes; a job cannot replace a
 * Hadoop (or Camdoop) class with its own copy. Each job has its own loader, so jobs do not see each other's classes
 * and the daemon's own loader sees none of them.
 *
 * <p>{@link #close()} closes the jar files and makes Hadoop's static caches forget the job's classes
 * ({@link HadoopClassCaches}), so the loader and its classes can be collected once the job's objects are gone.
 */
public final class JobClassLoader extends URLClassLoader {
    static {
        registerAsParallelCapable();
    }

    private final String jobId;
    private final AtomicBoolean closed = new AtomicBoolean();

    private JobClassLoader(String jobId, URL[] urls, ClassLoader parent) {
        super("camdoop-job-" + jobId, urls, parent);
        this.jobId = jobId;
    }

    /** A loader for {@code jobId} over {@code jars} (class path order) with {@code parent} the daemon's loader. */
    public static JobClassLoader open(String jobId, List<Path> jars, ClassLoader parent) {
        URL[] urls = new URL[jars.size()];
        for (int i = 0; i < urls.length; i++) {
            try {
                urls[i] = jars.get(i).toUri().toURL();
            } catch (MalformedURLException e) {
                throw new IllegalArgumentException("not a jar path: " + jars.get(i), e);
            }
        }
        return new JobClassLoader(jobId, urls, parent);
    }

    public String jobId() {
        return jobId;
    }

    public boolean isClosed() {
        return closed.get();
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        HadoopClassCaches.forget(this);
        try {
            super.close();
        } catch (IOException e) {
            throw new UncheckedIOException("closing the class loader of " + jobId, e);
        }
    }

    @Override
    public String toString() {
        return getName() + (closed.get() ? " (closed)" : "");
    }
}
