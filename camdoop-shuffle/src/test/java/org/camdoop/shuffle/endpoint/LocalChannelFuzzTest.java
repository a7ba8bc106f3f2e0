package org.camdoop.shuffle.endpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.camdoop.shuffle.daemon.CamdoopDaemon;
import org.camdoop.shuffle.protocol.LocalWire;
import org.camdoop.shuffle.protocol.UnixPeers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Whatever a local process writes to a real daemon's Unix socket (the daemon knows the job's token, so requests reach
 * the proof checks, the registry and the jar cache): the daemon answers only with well-formed reply frames, ends the
 * connection within a bound once the writer stops, and afterwards still runs a legitimate job to the right result.
 */
class LocalChannelFuzzTest {

    private static final String JOB = "job_1700000000000_0042";
    private static final Set<Integer> REPLIES = Set.of(LocalWire.OK, LocalWire.REFUSED, LocalWire.CHUNK, LocalWire.END,
            LocalWire.FAILED, LocalWire.NONCE_IS);

    private static Path dir;
    private static CamdoopDaemon daemon;
    private static ScheduledExecutorService watchdog;

    @BeforeAll
    static void startDaemon() throws Exception {
        dir = Files.createTempDirectory("local-channel-fuzz");
        daemon = CamdoopDaemon.start(LocalDaemonFixture.conf(dir));
        daemon.tokens().add(JOB, LocalDaemonFixture.SECRET, UnixPeers.processUser());
        watchdog = Executors.newSingleThreadScheduledExecutor();
    }

    @AfterAll
    static void theDaemonStillServesALegitimateJob() throws Exception {
        try {
            assertEquals(LocalDaemonFixture.WORD_COUNTS, LocalDaemonFixture.runWordCount(daemon, dir, JOB));
        } finally {
            watchdog.shutdownNow();
            daemon.close();
        }
    }

    @FuzzTest(maxDuration = "3s")
    void anyBytesGetWellFormedRepliesAndAnEnd(byte[] bytes) throws IOException {
        AtomicBoolean cutByWatchdog = new AtomicBoolean();
        try (RawLocalConnection c = new RawLocalConnection(daemon.localSocket())) {
            ScheduledFuture<?> cut = watchdog.schedule(() -> {
                cutByWatchdog.set(true);
                try {
                    c.close();
                } catch (IOException ignored) {
                    // the reader below fails either way
                }
            }, 10, TimeUnit.SECONDS);
            try {
                c.sendRaw(bytes);
                c.finishSending();
            } catch (IOException closedEarly) {
                // the daemon may close as soon as it has seen enough of a bad frame
            }
            try {
                for (LocalWire.Frame f; (f = c.nextOrEnd()) != null; ) {
                    assertTrue(REPLIES.contains(f.type()), "the daemon sent a frame of type " + f.type());
                }
            } catch (LocalWire.BadFrameException malformed) {
                throw new AssertionError("the daemon sent a malformed frame: " + malformed.getMessage(), malformed);
            } catch (IOException reset) {
                // a connection the daemon closed while bytes were still unread ends with a reset
            }
            cut.cancel(false);
        }
        assertFalse(cutByWatchdog.get(), "the daemon kept the connection open 10 s after the writer stopped");
    }
}
