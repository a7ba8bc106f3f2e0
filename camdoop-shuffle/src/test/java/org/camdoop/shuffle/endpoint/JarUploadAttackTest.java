package org.camdoop.shuffle.endpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.camdoop.shuffle.client.DaemonClient;
import org.camdoop.shuffle.daemon.CamdoopDaemon;
import org.camdoop.shuffle.daemon.DaemonConfig;
import org.camdoop.shuffle.jobs.JobsConfig;
import org.camdoop.shuffle.protocol.DaemonRefusedException;
import org.camdoop.shuffle.protocol.JarDigest;
import org.camdoop.shuffle.protocol.JobTokenProof;
import org.camdoop.shuffle.protocol.LocalWire;
import org.camdoop.shuffle.protocol.Refusal;
import org.camdoop.shuffle.protocol.UnixPeers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jar uploads over the local channel, against a real daemon on its real socket: a proof is needed, and no job can
 * take more than the cache's bounds, its own quota, or an upload slot for longer than its pieces take. Each refusal
 * is exact, and a legitimate job on the same daemon still completes with identical output.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JarUploadAttackTest {
    private static final String JOB = "job_1700000000000_0042";
    private static final byte[] SECRET = LocalDaemonFixture.SECRET;

    @TempDir
    Path dir;

    private static CamdoopDaemon start(Configuration c) throws Exception {
        return LocalDaemonFixture.startKnowing(c, JOB);
    }

    @Test
    void jarsNeedAProofAndStayWithinTheCacheUploadAndJobBounds() throws Exception {
        Configuration c = LocalDaemonFixture.conf(dir);
        c.setLong(JobsConfig.JAR_CACHE_MAX_BYTES, 4 << 20);
        c.setLong(JobsConfig.JAR_CACHE_MAX_JOB_BYTES, 5 << 20);
        c.setInt(JobsConfig.JAR_CACHE_MAX_UPLOADS, 1);
        byte[] big = new byte[(7 << 20) / 2];
        JarDigest b = JarDigest.of(big);
        byte[] small = new byte[2 << 20];
        small[0] = 1;
        byte[] other = new byte[2 << 20];
        other[0] = 2;
        byte[] huge = new byte[5 << 20];
        JarDigest s = JarDigest.of(small);
        JarDigest o = JarDigest.of(other);
        JarDigest h = JarDigest.of(huge);
        try (CamdoopDaemon d = start(c); DaemonClient attacker = LocalDaemonFixture.connect(d)) {
            assertEquals("jar " + s + " for " + JOB + " refused: bad job token proof",
                    assertThrows(DaemonRefusedException.class, () -> attacker.putJar(JOB, s, small.length,
                            new byte[32], new ByteArrayInputStream(small))).getMessage());
            assertEquals("jar " + h + " of 5242880 bytes exceeds the jar cache bound of 4194304 bytes"
                    + " (camdoop.daemon.jar-cache.max-bytes)", assertThrows(DaemonRefusedException.class,
                            () -> attacker.putJar(JOB, h, huge.length, JobTokenProof.forJar(SECRET, JOB, h,
                                    huge.length), new ByteArrayInputStream(huge))).getMessage());
            // An upload in progress holds the only upload slot: a second is refused, not queued on disk.
            try (RawLocalConnection slow = new RawLocalConnection(d.localSocket())) {
                slow.send(LocalWire.PUT_JAR, putJarBody(JOB, o, other.length));
                slow.expectOk();
                assertEquals("jar " + s + " refused: 1 jar uploads in progress (camdoop.daemon.jar-cache.max-uploads)",
                        assertThrows(DaemonRefusedException.class, () -> attacker.putJar(JOB, s, small.length,
                                JobTokenProof.forJar(SECRET, JOB, s, small.length),
                                new ByteArrayInputStream(small))).getMessage());
                int half = other.length / 2;
                slow.send(LocalWire.JAR_PIECE, java.util.Arrays.copyOfRange(other, 0, half));
                slow.send(LocalWire.JAR_PIECE, java.util.Arrays.copyOfRange(other, half, other.length));
                slow.expectOk();
            }
            // The job has sent 2 MiB of its 5 MiB quota.
            assertEquals("jar " + b + " for " + JOB + " refused: the job's jars would take 5767168 bytes, over its"
                    + " quota of 5242880 (camdoop.daemon.jar-cache.max-job-bytes)",
                    assertThrows(DaemonRefusedException.class, () -> attacker.putJar(JOB, b, big.length,
                            JobTokenProof.forJar(SECRET, JOB, b, big.length), new ByteArrayInputStream(big)))
                            .getMessage());
            assertEquals(LocalDaemonFixture.WORD_COUNTS, LocalDaemonFixture.runWordCount(d, dir, JOB));
        }
    }

    /**
     * Found by review: an upload took one of the cache's few slots, and evicted other jobs' jars to make room, before
     * its job's quota was checked; and empty pieces, each within the frame timeout, held a slot for ever. So one job's
     * tasks could keep every other job's jars out of the daemon (and, arriving over the torus, have those jobs refused
     * there). Now the quota comes first, a piece must carry bytes, and a jar must be complete within a frame timeout
     * per full piece and one more.
     */
    @Test
    void anUploadOverItsQuotaEvictsNothingAndATrickleLosesItsSlot() throws Exception {
        Configuration c = LocalDaemonFixture.conf(dir);
        c.setLong(DaemonConfig.LOCAL_FRAME_TIMEOUT_MS, 300);
        c.setLong(JobsConfig.JAR_CACHE_MAX_BYTES, 4 << 20);
        c.setLong(JobsConfig.JAR_CACHE_MAX_JOB_BYTES, 3 << 20);
        c.setInt(JobsConfig.JAR_CACHE_MAX_UPLOADS, 1);
        String other = "job_1700000000000_0043";
        byte[] theirs = new byte[1 << 20];
        byte[] mine = new byte[2 << 20];
        mine[0] = 1;
        byte[] overQuota = new byte[(5 << 20) / 2];
        overQuota[0] = 2;
        byte[] tiny = new byte[100];
        JarDigest t = JarDigest.of(theirs);
        JarDigest m = JarDigest.of(mine);
        JarDigest q = JarDigest.of(overQuota);
        JarDigest y = JarDigest.of(tiny);
        try (CamdoopDaemon d = start(c); DaemonClient client = LocalDaemonFixture.connect(d)) {
            d.tokens().add(other, SECRET, UnixPeers.processUser());
            client.putJar(other, t, theirs.length, JobTokenProof.forJar(SECRET, other, t, theirs.length),
                    new ByteArrayInputStream(theirs));
            client.putJar(JOB, m, mine.length, JobTokenProof.forJar(SECRET, JOB, m, mine.length),
                    new ByteArrayInputStream(mine));
            // 3 MiB cached of 4; 2.5 MiB more would need the other job's jar evicted, and is over this job's quota.
            assertEquals("jar " + q + " for " + JOB + " refused: the job's jars would take 4718592 bytes, over its"
                    + " quota of 3145728 (camdoop.daemon.jar-cache.max-job-bytes)",
                    assertThrows(DaemonRefusedException.class, () -> client.putJar(JOB, q, overQuota.length,
                            JobTokenProof.forJar(SECRET, JOB, q, overQuota.length),
                            new ByteArrayInputStream(overQuota))).getMessage());
            assertTrue(cached(t), "the other job's jar is still cached");

            try (RawLocalConnection empty = new RawLocalConnection(d.localSocket())) {
                empty.send(LocalWire.PUT_JAR, putJarBody(other, y, tiny.length));
                empty.expectOk();
                empty.send(LocalWire.JAR_PIECE, new byte[0]);
                assertEquals("an empty jar piece for jar " + y, empty.refusal(Refusal.MALFORMED));
                assertTrue(empty.closedByDaemon());
            }
            try (RawLocalConnection gone = new RawLocalConnection(d.localSocket())) {
                gone.send(LocalWire.PUT_JAR, putJarBody(other, y, tiny.length));
                gone.expectOk();
                // A piece announced whole, half of it sent, then nothing more: the upload fails, and says so.
                gone.sendHeader(tiny.length + 1, LocalWire.JAR_PIECE, java.util.Arrays.copyOf(tiny, tiny.length / 2));
                gone.finishSending();
                assertEquals("jar " + y + " not stored: its upload ended early (EOFException)",
                        gone.refusal(Refusal.REFUSED));
                assertFalse(cached(y), "nothing cached of a jar cut short");
            }
            try (RawLocalConnection trickle = new RawLocalConnection(d.localSocket())) {
                trickle.send(LocalWire.PUT_JAR, putJarBody(other, y, tiny.length));
                trickle.expectOk();
                // A byte every 100 ms, each well within the frame timeout: 100 bytes would take 10 s.
                long start = System.nanoTime();
                try {
                    for (int i = 0; i < tiny.length; i++) {
                        trickle.send(LocalWire.JAR_PIECE, new byte[] {tiny[i]});
                        Thread.sleep(100);
                    }
                } catch (java.io.IOException closed) {
                    // The daemon gave up on it.
                }
                assertEquals("jar " + y + " not complete within 600 ms", trickle.refusal(Refusal.MALFORMED));
                assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "the slot was held too long");
            }
            client.putJar(other, y, tiny.length, JobTokenProof.forJar(SECRET, other, y, tiny.length),
                    new ByteArrayInputStream(tiny));
            assertEquals(LocalDaemonFixture.WORD_COUNTS, LocalDaemonFixture.runWordCount(d, dir, JOB));
        }
    }

    private boolean cached(JarDigest jar) throws Exception {
        try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
            return files.anyMatch(f -> f.getFileName().toString().startsWith(jar.hex()));
        }
    }

    private static byte[] putJarBody(String jobId, JarDigest jar, long size) throws Exception {
        return LocalWire.body(out -> {
            out.writeUTF(jobId);
            out.write(java.util.HexFormat.of().parseHex(jar.hex()));
            out.writeLong(size);
            LocalWire.writeBytes(out, JobTokenProof.forJar(SECRET, jobId, jar, size));
        });
    }
}
