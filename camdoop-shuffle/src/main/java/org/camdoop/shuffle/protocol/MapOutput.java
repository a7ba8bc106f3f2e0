package org.camdoop.shuffle.protocol;

import org.apache.hadoop.mapreduce.TaskAttemptID;

/**
 * One map attempt's final output on this server, as a task names it to its daemon: the job, the attempt and the number
 * of partitions in it. It names no file: the daemon derives {@code file.out} and {@code file.out.index} from the job's
 * user, application and attempt under the NodeManager's local dirs, as Hadoop's ShuffleHandler does, and opens them
 * with owner checks ({@code jobs.MapOutputLocator}). The files stay Hadoop's (the NodeManager deletes them).
 */
public record MapOutput(String jobId, String attemptId, int partitions) {
    /**
     * @throws IllegalArgumentException if the attempt is not a map attempt of {@code jobId} or {@code partitions} is
     *     negative or above {@link JobSpec#MAX_REDUCES}
     */
    public MapOutput {
        checkMapAttempt(jobId, attemptId);
        if (partitions < 0) {
            throw new IllegalArgumentException("negative partition count " + partitions + " for " + attemptId);
        }
        if (partitions > JobSpec.MAX_REDUCES) {
            throw new IllegalArgumentException("partition count " + partitions + " for " + attemptId + " is above the "
                    + JobSpec.MAX_REDUCES + " reduces daemons serve");
        }
    }

    /**
     * Checks that {@code attemptId} is a map attempt of {@code jobId}, in canonical form.
     *
     * @throws IllegalArgumentException if not, saying why
     */
    public static void checkMapAttempt(String jobId, String attemptId) {
        TaskAttemptID attempt;
        try {
            attempt = TaskAttemptID.forName(attemptId);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException("not a task attempt id: " + attemptId, e);
        }
        if (attempt == null || !attempt.getJobID().toString().equals(jobId)) {
            throw new IllegalArgumentException("attempt " + attemptId + " is not of job " + jobId);
        }
        if (!attempt.isMap()) {
            throw new IllegalArgumentException("attempt " + attemptId + " is not a map attempt");
        }
        if (!attempt.toString().equals(attemptId)) {
            // The id names a directory: only its canonical form, which holds no path separator or dot segment.
            throw new IllegalArgumentException("attempt id " + attemptId + " is not in canonical form");
        }
    }
}
