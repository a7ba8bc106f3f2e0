package org.camdoop.shuffle.protocol;

import org.apache.hadoop.mapreduce.TaskAttemptID;

/**
 * One map attempt's final output on this server, as the daemon records it: the attempt, Hadoop's {@code file.out} and
 * {@code file.out.index} paths, and the number of partitions in it. The files stay Hadoop's (the NodeManager deletes
 * them); the daemon only reads them.
 */
public record MapOutput(String jobId, String attemptId, String outputFile, String indexFile, int partitions) {
    /**
     * @throws IllegalArgumentException if the attempt is not a map attempt of {@code jobId}, a path is empty or holds
     *     a line break (the proof message is line-based), or {@code partitions} is negative
     */
    public MapOutput {
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
        checkPath("output file", outputFile);
        checkPath("index file", indexFile);
        if (partitions < 0) {
            throw new IllegalArgumentException("negative partition count " + partitions + " for " + attemptId);
        }
    }

    private static void checkPath(String what, String path) {
        if (path == null || path.isEmpty() || path.indexOf('\n') >= 0 || path.indexOf('\r') >= 0) {
            throw new IllegalArgumentException(what + " must be a non-empty single-line path: " + path);
        }
    }
}
