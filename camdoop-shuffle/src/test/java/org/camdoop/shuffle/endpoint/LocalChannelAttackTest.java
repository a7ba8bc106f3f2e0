package org.camdoop.shuffle.endpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
import org.camdoop.shuffle.client.DaemonClient;
import org.camdoop.shuffle.daemon.CamdoopDaemon;
import org.camdoop.shuffle.daemon.DaemonConfig;
import org.camdoop.shuffle.protocol.DaemonRefusedException;
import org.camdoop.shuffle.protocol.JobSpec;
import org.camdoop.shuffle.protocol.JobTokenProof;
import org.camdoop.shuffle.protocol.LocalWire;
import org.camdoop.shuffle.protocol.Refusal;
import org.camdoop.shuffle.protocol.ShuffleCodes;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.shuffle.protocol.UnixPeers;
import org.camdoop.shuffle.testing.WordCounts;
import org.camdoop.torus.trees.TreeChoice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11's attacks on the local channel (2: START without the token, 3: one connection fells the daemon, and the
 * channel's part of 5; 4, jars, is {@link JarUploadAttackTest}) and the review of 2026-11-27's, against a real daemon
 * on its real socket: each is refused with the exact text the daemon also logs, and a legitimate job on the same
 * daemon still completes with identical output.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LocalChannelAttackTest {
    private static final String JOB = "job_1700000000000_0042";
    private static final byte[] SECRET = LocalDaemonFixture.SECRET;

    @TempDir
    Path dir;

    private static CamdoopDaemon start(Configuration c) throws Exception {
        return LocalDaemonFixture.startKnowing(c, JOB);
    }

    @Test
    void announcedGiantFramesAreRefusedBeforeAllocationAndStalledFramesAreTimedOut() throws Exception {
        Configuration c = LocalDaemonFixture.conf(dir);
        c.setLong(DaemonConfig.LOCAL_FRAME_TIMEOUT_MS, 300);
        c.setLong(DaemonConfig.LOCAL_IDLE_TIMEOUT_MS, 300);
        try (CamdoopDaemon d = start(c)) {
            for (int i = 0; i < 3; i++) {
                try (RawLocalConnection attacker = new RawLocalConnection(d.localSocket())) {
                    attacker.sendHeader(256 << 20, LocalWire.REGISTER_JOB, new byte[0]);
                    assertEquals("local frame of type 1 announces 268435456 bytes; its limit is 4194305",
                            attacker.refusal(Refusal.MALFORMED));
                    assertTrue(attacker.closedByDaemon());
                }
            }
            try (RawLocalConnection halfOpen = new RawLocalConnection(d.localSocket());
                    RawLocalConnection silent = new RawLocalConnection(d.localSocket())) {
                halfOpen.sendHeader(1000, LocalWire.REGISTER_MAP_OUTPUT, new byte[10]);
                assertTrue(halfOpen.closedByDaemon(), "a frame stalled mid-way is closed at the frame timeout");
                assertTrue(silent.closedByDaemon(), "a connection that never sends is closed at the idle timeout");
            }
            assertEquals(LocalDaemonFixture.WORD_COUNTS, LocalDaemonFixture.runWordCount(d, dir, JOB));
        }
    }

    /** Found by LocalChannelFuzzTest: a body cut short was refused as "malformed local request 5: null". */
    @Test
    void aRequestBodyCutShortIsRefusedSayingSoAndTheConnectionServesOn() throws Exception {
        try (CamdoopDaemon d = start(LocalDaemonFixture.conf(dir));
                RawLocalConnection c = new RawLocalConnection(d.localSocket())) {
            c.send(LocalWire.START_SHUFFLE, new byte[] {0, 3, 'j'});
            assertEquals("malformed local request 5: its 3-byte body ends before its last field",
                    c.refusal(Refusal.MALFORMED));
            c.send(LocalWire.NONCE, new byte[0]);
            assertEquals(LocalWire.NONCE_IS, c.reply().type());
        }
    }

    @Test
    void connectionsOverTheCapAreRefusedAndIdleOnesClosed() throws Exception {
        Configuration c = LocalDaemonFixture.conf(dir);
        c.setInt(DaemonConfig.LOCAL_MAX_CONNECTIONS, 3);
        c.setLong(DaemonConfig.LOCAL_IDLE_TIMEOUT_MS, 500);
        try (CamdoopDaemon d = start(c);
                RawLocalConnection a1 = new RawLocalConnection(d.localSocket());
                RawLocalConnection a2 = new RawLocalConnection(d.localSocket());
                RawLocalConnection a3 = new RawLocalConnection(d.localSocket());
                RawLocalConnection a4 = new RawLocalConnection(d.localSocket())) {
            assertEquals("too many local connections (3): connection from user " + UnixPeers.processUser()
                    + " refused", a4.refusal(Refusal.REFUSED));
            assertTrue(a1.closedByDaemon() && a2.closedByDaemon() && a3.closedByDaemon());
            assertEquals(LocalDaemonFixture.WORD_COUNTS, LocalDaemonFixture.runWordCount(d, dir, JOB));
        }
    }

    @Test
    void theRemovedClaimTokenRequestClosesTheConnection() throws Exception {
        try (CamdoopDaemon d = start(LocalDaemonFixture.conf(dir));
                RawLocalConnection attacker = new RawLocalConnection(d.localSocket())) {
            attacker.send(4, LocalWire.body(o -> {
                o.writeUTF("job_1700000000000_0099");
                LocalWire.writeBytes(o, "a secret".getBytes());
            }));
            assertEquals("local request type 4 out of place", attacker.refusal(Refusal.MALFORMED));
            assertTrue(attacker.closedByDaemon());
            assertEquals(LocalDaemonFixture.WORD_COUNTS, LocalDaemonFixture.runWordCount(d, dir, JOB));
        }
    }

    @Test
    void startWithoutTheJobsTokenOrWithAReplayedProofIsRefused() throws Exception {
        String attempt = "attempt_1700000000000_0042_m_000000_0";
        TreeSet<String> attempts = new TreeSet<>(List.of(attempt));
        int camdoop = ShuffleCodes.code(ShuffleMode.CAMDOOP);
        int six = ShuffleCodes.code(TreeChoice.SIX);
        String refused = "shuffle of " + JOB + " partition 0 refused: bad job token proof";
        try (CamdoopDaemon d = start(LocalDaemonFixture.conf(dir))) {
            d.tokens().add("job_1700000000000_0043", SECRET, "victim");
            try (DaemonClient attacker = LocalDaemonFixture.connect(d)) {
                // Without the token: any proof is wrong.
                assertEquals(refused, assertThrows(DaemonRefusedException.class, () -> attacker.startShuffle(JOB, 0, 0,
                        ShuffleMode.CAMDOOP, TreeChoice.SIX, attempts, nonce -> new byte[32])).getMessage());
                // A proof captured for another nonce (a replay) is wrong for this one.
                byte[] captured = JobTokenProof.forShuffle(SECRET, JOB, 0, 0, camdoop, six, new byte[32], attempts);
                assertEquals(refused, assertThrows(DaemonRefusedException.class, () -> attacker.startShuffle(JOB, 0, 0,
                        ShuffleMode.CAMDOOP, TreeChoice.SIX, attempts, nonce -> captured)).getMessage());
                // A valid proof for other trees does not cover these.
                assertEquals(refused, assertThrows(DaemonRefusedException.class, () -> attacker.startShuffle(JOB, 0, 0,
                        ShuffleMode.CAMDOOP, TreeChoice.SHORTEST, attempts, nonce -> JobTokenProof.forShuffle(SECRET,
                                JOB, 0, 0, camdoop, six, nonce, attempts))).getMessage());
                // Another user's job: refused before any proof is looked at (SO_PEERCRED).
                assertEquals("request for job_1700000000000_0043 from user " + UnixPeers.processUser()
                        + " refused: the job belongs to user victim", assertThrows(DaemonRefusedException.class,
                                () -> attacker.startShuffle("job_1700000000000_0043", 0, 0, ShuffleMode.CAMDOOP,
                                        TreeChoice.SIX, attempts, nonce -> new byte[32])).getMessage());
            }
            try (RawLocalConnection noNonce = new RawLocalConnection(d.localSocket())) {
                noNonce.send(LocalWire.START_SHUFFLE, LocalWire.body(o -> {
                    o.writeUTF(JOB);
                    o.writeInt(0);
                    o.writeInt(0);
                    o.writeByte(camdoop);
                    o.writeByte(six);
                    o.writeInt(0);
                    LocalWire.writeBytes(o, new byte[32]);
                }));
                assertEquals("shuffle of " + JOB + " partition 0 refused: no fresh nonce (send NONCE first)",
                        noNonce.refusal(Refusal.BAD_PROOF));
            }
            assertEquals(LocalDaemonFixture.WORD_COUNTS, LocalDaemonFixture.runWordCount(d, dir, JOB));
        }
    }

    /**
     * Found by review: a START's attempt list was parsed into a set (some 90 bytes an entry) before the peer was
     * authorised for the job, so any local user could make the daemon hold hundreds of megabytes per connection.
     * The job is now authorised first, its id must be canonical, the list is bounded and holds only map attempts of
     * the job.
     */
    @Test
    void aStartIsAuthorisedBeforeItsListIsReadAndTheListIsBoundedToTheJobsMapAttempts() throws Exception {
        String user = UnixPeers.processUser();
        try (CamdoopDaemon d = start(LocalDaemonFixture.conf(dir));
                RawLocalConnection c = new RawLocalConnection(d.localSocket())) {
            d.tokens().add("job_1700000000000_0043", SECRET, "victim");
            c.send(LocalWire.START_SHUFFLE, startBody("job_1700000000000_0043", 200_000, List.of("x")));
            assertEquals("request for job_1700000000000_0043 from user " + user + " refused: the job belongs to user"
                    + " victim", c.refusal(Refusal.REFUSED));
            c.send(LocalWire.START_SHUFFLE, startBody("job_1700000000000_42", 1, List.of("x")));
            assertEquals("request from user " + user + " refused: not a canonical job id: job_1700000000000_42",
                    c.refusal(Refusal.MALFORMED));
            c.send(LocalWire.START_SHUFFLE, startBody(JOB, (1 << 18) + 1, List.of()));
            assertEquals("malformed local request 5: a shuffle of " + JOB + " listing 262145 map attempts (at most"
                    + " 262144)", c.refusal(Refusal.MALFORMED));
            c.send(LocalWire.START_SHUFFLE, startBody(JOB, 2, List.of("attempt_1700000000000_0042_m_000000_0",
                    "attempt_1700000000000_0043_m_000000_0")));
            assertEquals("malformed local request 5: attempt attempt_1700000000000_0043_m_000000_0 is not of job "
                    + JOB, c.refusal(Refusal.MALFORMED));
            c.send(LocalWire.START_SHUFFLE, startBody(JOB, 1, List.of("attempt_1700000000000_0042_r_000000_0")));
            assertEquals("malformed local request 5: attempt attempt_1700000000000_0042_r_000000_0 is not a map "
                    + "attempt", c.refusal(Refusal.MALFORMED));
            assertEquals(LocalDaemonFixture.WORD_COUNTS, LocalDaemonFixture.runWordCount(d, dir, JOB));
        }
    }

    /**
     * Found by review: NONCE needs no authorisation and restarted the idle timer, and the daemon's replies waited for
     * room for ever, so a local user pipelining NONCE requests without reading the answers held a connection and its
     * thread for good (with enough of them, every slot of the node). Now a reply the task leaves unread for the frame
     * timeout closes the connection, and NONCEs alone do not keep one past the idle timeout.
     */
    @Test
    void aTaskThatReadsNoRepliesOrSendsOnlyNoncesLosesItsSlot() throws Exception {
        Configuration c = LocalDaemonFixture.conf(dir);
        c.setInt(DaemonConfig.LOCAL_MAX_CONNECTIONS, 1);
        c.setLong(DaemonConfig.LOCAL_FRAME_TIMEOUT_MS, 300);
        c.setLong(DaemonConfig.LOCAL_IDLE_TIMEOUT_MS, 600);
        try (CamdoopDaemon d = start(c)) {
            try (RawLocalConnection stalled = new RawLocalConnection(d.localSocket())) {
                byte[] nonces = new byte[5 * 50_000]; // 50,000 NONCE frames; their answers take megabytes: read none
                for (int i = 0; i < nonces.length; i += 5) {
                    nonces[i + 3] = 1;
                    nonces[i + 4] = LocalWire.NONCE;
                }
                try {
                    stalled.sendRaw(nonces);
                } catch (java.io.IOException closed) {
                    // The daemon gave up on it before it took them all.
                }
            }
            // Admitted only once the stalled connection gave its slot back; then it sends only NONCEs.
            try (RawLocalConnection noncesOnly = theOnlySlot(d, "a connection that reads none of its replies")) {
                long start = System.nanoTime();
                boolean closed = false;
                for (int i = 0; i < 50 && !closed; i++) { // a NONCE every 100 ms, each answer read: 5 s at most
                    try {
                        noncesOnly.send(LocalWire.NONCE, new byte[0]);
                        closed = noncesOnly.nextOrEnd() == null;
                    } catch (java.io.IOException e) {
                        closed = true;
                    }
                    Thread.sleep(100);
                }
                assertTrue(closed, "a connection sending only NONCEs stayed open for 5 s (idle timeout 600 ms)");
                assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(3), "closed late");
            }
            assertEquals(LocalDaemonFixture.WORD_COUNTS, LocalDaemonFixture.runWordCount(d, dir, JOB));
        }
    }

    /**
     * Found by a second review: the idle timer only ran while nothing was queued, and a write stalled only while the
     * task read nothing. A task that queued thousands of NONCEs and read one answer every 200 ms (within the frame
     * timeout each time) kept its connection for as long as its queue lasted. The idle budget is now wall-clock, and
     * only a request authorised for its job restarts it.
     */
    @Test
    void aTaskThatQueuesNoncesAndReadsTheirAnswersSlowlyLosesItsConnectionAtTheIdleTimeout() throws Exception {
        Configuration c = LocalDaemonFixture.conf(dir);
        c.setLong(DaemonConfig.LOCAL_FRAME_TIMEOUT_MS, 300);
        c.setLong(DaemonConfig.LOCAL_IDLE_TIMEOUT_MS, 600);
        try (CamdoopDaemon d = start(c); RawLocalConnection slow = new RawLocalConnection(d.localSocket())) {
            byte[] nonces = new byte[5 * 20_000];
            for (int i = 0; i < nonces.length; i += 5) {
                nonces[i + 3] = 1;
                nonces[i + 4] = LocalWire.NONCE;
            }
            slow.sendRaw(nonces);
            long start = System.nanoTime();
            boolean closed = false;
            for (int i = 0; i < 25 && !closed; i++) { // one answer read, one NONCE more, every 200 ms: 5 s at most
                try {
                    slow.reply();
                    slow.send(LocalWire.NONCE, new byte[0]);
                } catch (java.io.IOException e) {
                    closed = true; // the daemon closed its end: the send (or the read, once drained) fails
                }
                Thread.sleep(200);
            }
            assertTrue(closed, "a connection of queued NONCEs read slowly stayed open for 5 s (idle timeout 600 ms)");
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(3), "closed late");
            assertEquals(LocalDaemonFixture.WORD_COUNTS, LocalDaemonFixture.runWordCount(d, dir, JOB));
        }
    }

    /** A connection the daemon admitted (its NONCE answered), once {@code holder} gave the only slot back (bounded). */
    private static RawLocalConnection theOnlySlot(CamdoopDaemon d, String holder) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            RawLocalConnection probe = new RawLocalConnection(d.localSocket());
            try {
                probe.send(LocalWire.NONCE, new byte[0]);
                if (probe.reply().type() == LocalWire.NONCE_IS) {
                    return probe;
                }
            } catch (java.io.IOException refusedAndClosed) {
                // Over the cap: refused, and the connection closed under the NONCE.
            }
            probe.close();
            assertTrue(System.nanoTime() < deadline, holder + " still holds the only slot after 10 s");
            Thread.sleep(50);
        }
    }

    /** A START_SHUFFLE body announcing {@code n} map attempts and carrying {@code attempts}. */
    private static byte[] startBody(String jobId, int n, List<String> attempts) throws Exception {
        return LocalWire.body(o -> {
            o.writeUTF(jobId);
            o.writeInt(0);
            o.writeInt(0);
            o.writeByte(ShuffleCodes.code(ShuffleMode.CAMDOOP));
            o.writeByte(ShuffleCodes.code(TreeChoice.SIX));
            o.writeInt(n);
            for (String a : attempts) {
                o.writeUTF(a);
            }
            for (int i = attempts.size(); i < Math.min(n, 200_000); i++) {
                o.writeUTF("x" + i); // junk an unauthorised user might send in bulk
            }
            LocalWire.writeBytes(o, new byte[32]);
        });
    }
}
