package org.camdoop.shuffle.hadoop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.mapred.JobConf;
import org.camdoop.shuffle.client.DaemonClient;
import org.camdoop.shuffle.client.DaemonLocator;
import org.camdoop.shuffle.protocol.DaemonRefusedException;
import org.camdoop.shuffle.protocol.JobSpec;
import org.camdoop.shuffle.protocol.JobTokenProof;
import org.camdoop.shuffle.protocol.Refusal;

/**
 * A task's session with its local daemon: finds it, connects, and makes sure the job is registered there (token,
 * spec, jars), which both the map side (before its output) and the reduce side (before it becomes a root) need.
 * Not thread-safe: one task thread.
 */
final class DaemonSession implements AutoCloseable {
    private final DaemonClient client;
    private final byte[] secret;

    private DaemonSession(DaemonClient client, byte[] secret) {
        this.client = client;
        this.secret = secret;
    }

    /** Connects to the task's daemon and registers {@code job} with it. */
    static DaemonSession open(JobConf job) throws IOException {
        byte[] secret = TaskSecrets.shuffleSecret(job);
        DaemonClient client = DaemonClient.connect(DaemonLocator.locate(job, DaemonLocator.taskLocalDirs(job)),
                job.getInt(CamdoopJobConfig.CONNECT_TIMEOUT_MS, CamdoopJobConfig.DEFAULT_CONNECT_TIMEOUT_MS));
        try {
            registerJob(client, job, secret);
            return new DaemonSession(client, secret);
        } catch (IOException | RuntimeException e) {
            client.close();
            throw e;
        }
    }

    private static void registerJob(DaemonClient client, JobConf job, byte[] secret) throws IOException {
        String jobId = job.get(org.apache.hadoop.mapreduce.MRJobConfig.ID);
        try {
            client.claimToken(jobId, secret);
        } catch (DaemonRefusedException e) {
            // Under YARN the NodeManager vouches for the token and trust on first use is off: the spec check decides.
        }
        List<Path> jars = TaskJars.of(job);
        JobSpec spec = JobSpec.fromJobConf(job, jars);
        try {
            client.registerJob(spec, JobTokenProof.forSpec(secret, spec));
        } catch (DaemonRefusedException e) {
            if (e.refusal() != Refusal.MISSING_JARS) {
                throw e;
            }
            for (Path jar : jars) {
                client.putJar(Files.readAllBytes(jar));
            }
            client.registerJob(spec, JobTokenProof.forSpec(secret, spec));
        }
    }

    DaemonClient client() {
        return client;
    }

    byte[] secret() {
        return secret.clone();
    }

    @Override
    public void close() throws IOException {
        client.close();
    }
}
