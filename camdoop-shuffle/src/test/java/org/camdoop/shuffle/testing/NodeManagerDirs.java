package org.camdoop.shuffle.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.mapred.JobConf;
import org.camdoop.shuffle.jobs.MapOutputLocator;

/**
 * Map outputs where a NodeManager's map task leaves them: {@code <local dir>/usercache/<user>/appcache/<app>/output/
 * <attempt>/file.out} and {@code file.out.index}, the only place a daemon looks.
 */
public final class NodeManagerDirs {
    /** The user the tests run as, which owns the files they write. */
    public static final String USER = System.getProperty("user.name");

    private NodeManagerDirs() {
    }

    /** The attempt's output directory under {@code localDir}, created. */
    public static Path attemptDir(Path localDir, String jobId, String attempt) throws IOException {
        return Files.createDirectories(localDir.resolve(MapOutputLocator.attemptDir(USER, jobId, attempt)));
    }

    /** Writes a word-count map output of {@code counts} for {@code attempt}; returns its directory. */
    public static Path writeWordCounts(JobConf job, Path localDir, String jobId, String attempt,
            Map<String, Integer> counts) throws IOException {
        Path dir = attemptDir(localDir, jobId, attempt);
        WordCounts.write(job, new org.apache.hadoop.fs.Path(dir.resolve("file.out").toString()),
                new org.apache.hadoop.fs.Path(dir.resolve("file.out.index").toString()), counts);
        return dir;
    }
}
