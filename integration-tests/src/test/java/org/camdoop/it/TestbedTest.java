package org.camdoop.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The testbed from the distribution: daemons as separate processes in their own network namespaces, joined by shaped
 * veth links; a cut link and a killed daemon show in {@code check}; {@code down} leaves nothing behind; a killed
 * daemon started again rejoins the torus. Needs root and
 * iproute2, as CI has (.ci/run installs iproute2): without them it fails, saying so, rather than skipping.
 */
@Timeout(240)
class TestbedTest {

    @TempDir
    Path dir;
    private Path home;
    private Path work;
    private Map<String, String> env;
    private Path script;

    @BeforeEach
    void unpack() throws Exception {
        home = Distribution.unpack(dir);
        work = dir.resolve("testbed");
        env = Map.of("CAMDOOP_TESTBED_DIR", work.toString());
        script = home.resolve("sbin/camdoop-testbed.sh");
    }

    @Test
    void upCheckCutKillDownOnA2x2x1Torus() throws Exception {
        try {
            Distribution.Result up = Distribution.run(home, env, script.toString(), "up", "--shape", "2x2x1",
                    "--link-mbps", "50");
            assertEquals(0, up.exit(), up.out());
            assertTrue(up.out().contains("camdoop-testbed: 4 namespaces, 4 torus links at 50 Mbit/s each way"),
                    up.out());
            Distribution.Result all = Distribution.awaitCheck(home, env, 0, out -> count(out, " 2 of 2 up") == 4,
                    script.toString(), "check");
            assertEquals(4, count(all.out(), "10.77.0."), all.out());
            Distribution.Result qdisc = Distribution.run(home, Map.of(), "ip", "netns", "exec", "camdoop-0_0_0", "tc",
                    "qdisc", "show", "dev", "t0-1");
            assertTrue(qdisc.out().contains("tbf") && qdisc.out().contains("rate 50Mbit"), qdisc.out());

            assertEquals(0, Distribution.run(home, env, script.toString(), "cut", "0,0,0", "1,0,0").exit());
            // Each end notices the cut on its own heartbeat timer: wait for both, not the first.
            Distribution.Result cut = Distribution.awaitCheck(home, env, 1,
                    out -> out.contains("down: +x to 1,0,0") && out.contains("down: +x to 0,0,0"), script.toString(),
                    "check");
            assertTrue(cut.out().contains("1,0,0      10.77.0.2              up      1 of 2 up; down: +x to 0,0,0"),
                    cut.out());

            assertEquals(0, Distribution.run(home, env, script.toString(), "kill", "1,1,0").exit());
            // The daemon is gone at once; its neighbour notices when the connection closes: wait for both.
            Distribution.Result killed = Distribution.awaitCheck(home, env, 1,
                    out -> out.contains("1,1,0      10.77.0.4              DOWN") && out.contains("down: +x to 1,1,0"),
                    script.toString(), "check");
            assertTrue(killed.out().contains("0,1,0      10.77.0.3              up      1 of 2 up; down: +x to 1,1,0"),
                    killed.out());
        } finally {
            Distribution.Result down = Distribution.run(home, env, script.toString(), "down");
            assertEquals(0, down.exit(), down.out());
        }
        assertEquals("", Distribution.run(home, Map.of(), "ip", "netns", "list").out(), "no namespace left");
        assertTrue(Distribution.run(home, Map.of(), "ip", "-o", "link").out().lines()
                .noneMatch(l -> l.matches("\\d+: t\\d+-\\d+.*")), "no veth left");
        assertTrue(Distribution.run(home, Map.of(), "pgrep", "-f", "testbed.*DaemonMain").out().isEmpty(),
                "no daemon left");
        assertTrue(!Files.exists(work), "no testbed files left");
    }

    /**
     * A daemon killed and declared failed by its neighbours (failure timeout 1 s), then started again with
     * {@code testbed start}: its neighbours see a new run of it in the link handshake, take it back (every daemon logs
     * that it rejoined) and use its links again. Before rejoin existed it stayed out of every view until all daemons
     * restarted.
     */
    @Test
    void aKilledDaemonStartedAgainRejoinsTheTorus() throws Exception {
        String logs = "cat " + work.resolve("logs") + "/camdoop-testbed-*-daemon.log";
        try {
            Distribution.Result up = Distribution.run(home, env, script.toString(), "up", "--shape", "2x2x1",
                    "--link-mbps", "50", "--failure-timeout-ms", "1000");
            assertEquals(0, up.exit(), up.out());
            Distribution.awaitCheck(home, env, 0, out -> count(out, " 2 of 2 up") == 4, script.toString(), "check");

            assertEquals(0, Distribution.run(home, env, script.toString(), "kill", "1,1,0").exit());
            // Both neighbours dial 1,1,0 (the lower index dials) and are refused: each declares it at once (or, on a
            // slow machine, when its failure timeout runs out first).
            Distribution.awaitCheck(home, env, 0, out -> count(out, "declared failed") == 2, "sh", "-c", logs);

            Distribution.Result started = Distribution.run(home, env, script.toString(), "start", "1,1,0");
            assertEquals(0, started.exit(), started.out());
            assertTrue(started.out().contains("camdoop-testbed: started the daemon of 1,1,0"), started.out());
            Distribution.awaitCheck(home, env, 0, out -> count(out, " 2 of 2 up") == 4, script.toString(), "check");
            // Each of the three others takes the new run back into its view, and so routes over its links again.
            Distribution.Result rejoined = Distribution.awaitCheck(home, env, 0,
                    out -> count(out, "server 1,1,0 rejoined: a new run of its daemon") == 3, "sh", "-c", logs);
            assertEquals(2, count(rejoined.out(), "declared failed"), "nobody else was declared failed");
            assertEquals(1, Distribution.run(home, env, script.toString(), "start", "0,0,0").exit(),
                    "a daemon that runs is not started twice");
        } finally {
            Distribution.Result down = Distribution.run(home, env, script.toString(), "down");
            assertEquals(0, down.exit(), down.out());
        }
    }

    private static long count(String s, String what) {
        return s.lines().filter(l -> l.contains(what)).count();
    }
}
