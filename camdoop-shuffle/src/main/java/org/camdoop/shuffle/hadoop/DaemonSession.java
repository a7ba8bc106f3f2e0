package org.camdoop.shuffle.hadoop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.mapred.JobConf;
import org.camdoop.shuffle.client.DaemonClient;
import org.camdoop.shuffle.client.DaemonLocator;
import org.camdoop.shuffle.protocol.DaemonRefusedException;
import org.camdoop.shuffle.protocol.JarDigest;
import org.camdoop.shuffle.protocol.JobSpec;
import org.camdoop.shuffle.protocol.JobTokenProof;
import org.camdoop.shuffle.protocol.Refusal;

/**
 * A task's session with its local daemon: finds it, connects, and makes sure the job is registered there (spec,
 * jars; the job's token reaches the daemon from the NodeManager, never from the task), which both the map side (before its output) and the reduce side (before it becomes a root) need.
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
        DaemonClient client = DaemonClient.connect(DaemonLocator.locate(job, DaemonLocator.taskLocalDirs(job)));
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
        List<Path> jars = TaskJars.of(job);
        JobSpec spec = JobSpec.fromJobConf(job, jars);
        try {
            client.registerJob(spec, JobTokenProof.forSpec(secret, spec));
        } catch (DaemonRefusedException e) {
            if (e.refusal() != Refusal.MISSING_JARS) {
                throw e;
            }
            for (Path jar : jars) {
                JarDigest digest = JarDigest.of(jar);
                long size = Files.size(jar);
                try (java.io.InputStream in = Files.newInputStream(jar)) {
                    client.putJar(jobId, digest, size, JobTokenProof.forJar(secret, jobId, digest, size), in);
                }
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
