package org.camdoop.shuffle.endpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.mapred.JobConf;
import org.camdoop.shuffle.client.DaemonClient;
import org.camdoop.shuffle.daemon.CamdoopDaemon;
import org.camdoop.shuffle.protocol.DaemonRefusedException;
import org.camdoop.shuffle.protocol.DaemonSocketFile;
import org.camdoop.shuffle.protocol.JobSpec;
import org.camdoop.shuffle.protocol.JobTokenProof;
import org.camdoop.shuffle.protocol.Refusal;
import org.camdoop.shuffle.protocol.UnixPeers;
import org.camdoop.shuffle.testing.WordCounts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local protocol against a real daemon on its Unix domain socket: registrations, refusals, a shuffle. */
class LocalEndpointTest {
    private static final String JOB = "job_1700000000000_0042";
    private static final byte[] SECRET = LocalDaemonFixture.SECRET;

    @TempDir
    Path dir;

    @Test
    void registrationsAndAShuffleRoundTrip() throws Exception {
        JobConf job = WordCounts.jobWithCombiner(1);
        job.set("mapreduce.job.id", JOB);
        JobSpec spec = JobSpec.fromJobConf(job, List.of());
        try (CamdoopDaemon d = CamdoopDaemon.start(LocalDaemonFixture.conf(dir));
                DaemonClient client = LocalDaemonFixture.connect(d)) {
            // The daemon published its socket where tasks look for it.
            assertEquals(java.util.Optional.of(d.localSocket()),
                    DaemonSocketFile.read(dir.resolve("nm-local"), UnixPeers.processUser()));
            DaemonRefusedException unknown = assertThrows(DaemonRefusedException.class,
                    () -> client.registerJob(spec, JobTokenProof.forSpec(SECRET, spec)));
            assertEquals(Refusal.UNKNOWN_JOB, unknown.refusal());
            assertEquals("unknown job " + JOB + ": no job token registered", unknown.getMessage());

            d.tokens().add(JOB, SECRET, UnixPeers.processUser());
            DaemonRefusedException bad = assertThrows(DaemonRefusedException.class,
                    () -> client.registerJob(spec, JobTokenProof.forSpec("wrong".getBytes(), spec)));
            assertEquals(Refusal.BAD_PROOF, bad.refusal());
            assertEquals("job spec registration for " + JOB + " refused: bad job token proof", bad.getMessage());
        }
        try (CamdoopDaemon d = CamdoopDaemon.start(LocalDaemonFixture.conf(dir))) {
            d.tokens().add(JOB, SECRET, UnixPeers.processUser());
            assertEquals(LocalDaemonFixture.WORD_COUNTS, LocalDaemonFixture.runWordCount(d, dir, JOB));
        }
    }
}
