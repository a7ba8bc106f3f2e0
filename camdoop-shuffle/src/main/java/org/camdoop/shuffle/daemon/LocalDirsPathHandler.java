package org.camdoop.shuffle.daemon;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.LocalDirAllocator;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.api.AuxiliaryLocalPathHandler;

/**
 * The NodeManager's local dirs ({@code yarn.nodemanager.local-dirs}) as a path handler, for when the NodeManager gave
 * the shuffle service none: Hadoop 3.5 wraps a service loaded from {@code yarn.nodemanager.aux-services.NAME.classpath}
 * in {@code AuxiliaryServiceWithCustomClassLoader}, which does not pass the NodeManager's path handler on, and
 * ShuffleHandler then fails every fetch with a NullPointerException. Searches the configured dirs as ShuffleHandler
 * did before path handlers existed ({@link LocalDirAllocator}); unlike the NodeManager's own handler it does not skip
 * disks the NodeManager has marked bad, which only matters when a map output's disk has failed anyway.
 */
final class LocalDirsPathHandler implements AuxiliaryLocalPathHandler {

    private final Configuration conf;
    private final LocalDirAllocator dirs = new LocalDirAllocator(YarnConfiguration.NM_LOCAL_DIRS);

    LocalDirsPathHandler(Configuration conf) {
        this.conf = conf;
    }

    @Override
    public Path getLocalPathForRead(String path) throws IOException {
        return dirs.getLocalPathToRead(path, conf);
    }

    @Override
    public Path getLocalPathForWrite(String path) throws IOException {
        return dirs.getLocalPathForWrite(path, conf);
    }

    @Override
    public Path getLocalPathForWrite(String path, long size) throws IOException {
        return dirs.getLocalPathForWrite(path, size, conf);
    }

    @Override
    public Iterable<Path> getAllLocalPathsForRead(String path) throws IOException {
        return dirs.getAllLocalPathsToRead(path, conf);
    }
}
