package org.camdoop.shuffle.hadoop;

import java.io.IOException;
import java.util.SortedMap;
import java.util.SortedSet;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.camdoop.shuffle.protocol.JobTokenProof;
import org.camdoop.shuffle.protocol.ShuffleCodes;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.torus.trees.TreeChoice;
import org.camdoop.shuffle.protocol.StreamSource;
import org.camdoop.shuffle.protocol.StreamItem;

/** The stream of a shuffle whose root is the task's local daemon, read from the local protocol's socket. */
final class DaemonStreamSource implements StreamSource {
    private final DaemonSession session;
    private final String jobId;
    private final int partition;
    private final int attempt;
    private final ShuffleMode mode;
    private final TreeChoice trees;
    /** The map attempts the shuffle reads now. */
    private SortedSet<String> expected;

    private DaemonStreamSource(DaemonSession session, TaskAttemptID reduce, JobConf job, SortedSet<String> expected) {
        this.session = session;
        this.jobId = reduce.getJobID().toString();
        this.partition = reduce.getTaskID().getId();
        this.attempt = reduce.getId();
        this.mode = CamdoopJobConfig.mode(job);
        this.trees = CamdoopJobConfig.trees(job);
        this.expected = expected;
    }

    /** Registers the job with the local daemon and asks it to be the root of this reduce attempt's partition. */
    static DaemonStreamSource start(JobConf job, TaskAttemptID reduce, SortedSet<String> expected) throws IOException {
        DaemonSession session = DaemonSession.open(job);
        try {
            String jobId = reduce.getJobID().toString();
            int partition = reduce.getTaskID().getId();
            int attempt = reduce.getId();
            ShuffleMode mode = CamdoopJobConfig.mode(job);
            TreeChoice trees = CamdoopJobConfig.trees(job);
            byte[] secret = session.secret();
            session.client().startShuffle(jobId, partition, attempt, mode, trees, expected,
                    nonce -> JobTokenProof.forShuffle(secret, jobId, partition, attempt, ShuffleCodes.code(mode),
                            ShuffleCodes.code(trees), nonce, expected));
            session.client().streamTimeout(
                    job.getInt(CamdoopJobConfig.STALL_TIMEOUT_MS, CamdoopJobConfig.DEFAULT_STALL_TIMEOUT_MS));
            return new DaemonStreamSource(session, reduce, job, expected);
        } catch (IOException | RuntimeException e) {
            session.close();
            throw e;
        }
    }

    @Override
    public StreamItem next() throws IOException {
        return session.client().next();
    }

    @Override
    public void resume(StreamItem.Paused paused, SortedMap<String, String> replacements) throws IOException {
        SortedSet<String> next = ShuffleSpec.replacing(expected, replacements);
        byte[] proof = JobTokenProof.forShuffle(session.secret(), jobId, partition, attempt, ShuffleCodes.code(mode),
                ShuffleCodes.code(trees), paused.nonce(), next);
        session.client().resumeShuffle(replacements, proof);
        expected = next;
    }

    @Override
    public void close() throws IOException {
        session.close();
    }
}
