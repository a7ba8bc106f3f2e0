package org.camdoop.shuffle.hadoop;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.mapred.JobConf;

/**
 * The job jar as a task sees it: YARN localizes it as {@code job.jar} (a file, or a directory holding {@code job.jar}
 * when unpacked) in the container's working directory; LocalJobRunner leaves {@link JobConf#getJar()} pointing at the
 * client's copy. Daemons need it to run the job's combiner and comparator. Stateless.
 */
final class TaskJars {
    private TaskJars() {}

    /** The job jar, if the task can see one (jobs whose classes are all on Hadoop's class path have none). */
    static List<Path> of(JobConf job) {
        for (Path p : candidates(job)) {
            if (Files.isRegularFile(p)) {
                return List.of(p);
            }
        }
        return List.of();
    }

    private static List<Path> candidates(JobConf job) {
        String configured = job.getJar();
        Path cwd = Path.of("job.jar");
        if (configured == null) {
            return List.of(cwd, cwd.resolve("job.jar"));
        }
        String local = configured.startsWith("file:") ? java.net.URI.create(configured).getPath() : configured;
        return List.of(Path.of(local), cwd, cwd.resolve("job.jar"));
    }
}
