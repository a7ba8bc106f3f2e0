package org.camdoop.shuffle.service.vertex;

import org.apache.hadoop.fs.Path;
import org.camdoop.shuffle.aggregation.MapOutputFiles;

/** A map output on this server's disk: the attempt that wrote it and its files, with how they may be opened. */
public record LocalMapOutput(String attemptId, MapOutputFiles files) {

    public LocalMapOutput {
        if (!attemptId.equals(files.attemptId())) {
            throw new IllegalArgumentException("files of " + files.attemptId() + " given as " + attemptId);
        }
    }

    /** Files Hadoop handed over inside this JVM (local mode, tests, benchmarks): trusted, no owner check. */
    public LocalMapOutput(String attemptId, Path file, Path index) {
        this(attemptId, MapOutputFiles.inProcess(attemptId, java.nio.file.Path.of(file.toUri().getPath()),
                java.nio.file.Path.of(index.toUri().getPath())));
    }

    /** Files a daemon derived and checked for a task's registration. */
    public static LocalMapOutput of(MapOutputFiles files) {
        return new LocalMapOutput(files.attemptId(), files);
    }
}
