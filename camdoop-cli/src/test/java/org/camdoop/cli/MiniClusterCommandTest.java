package org.camdoop.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The command line of {@code camdoop minicluster}. The cluster it starts and the programs it runs are tested end to end
 * in integration-tests, through MiniCluster directly (several jobs share a cluster there).
 */
class MiniClusterCommandTest {

    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    @Test
    void helpNamesTheOptionsAndTheJsonLine() {
        CliRun r = run("minicluster", "--help");
        assertEquals(0, r.status());
        for (String s : new String[] {"--nodes", "--shape", "--stock", "--work", "\"counters\""}) {
            assertTrue(r.out().contains(s), s + " in:\n" + r.out());
        }
    }

    @Test
    void noNodeManagersIsAUsageError() {
        CliRun r = run("minicluster", "--nodes", "0", "--", "wordcount", "in", "out");
        assertEquals(CamdoopCli.USAGE, r.status());
        assertEquals("camdoop minicluster: --nodes must be at least 1, got 0", r.err().strip());
    }

    @Test
    void moreNodeManagersThanCoordinatesIsAUsageError() {
        CliRun r = run("minicluster", "--nodes", "9", "--shape", "2x2x2", "--", "wordcount", "in", "out");
        assertEquals(CamdoopCli.USAGE, r.status());
        assertEquals("camdoop minicluster: --nodes 9 does not fit the torus 2x2x2 (8 coordinates)", r.err().strip());
    }

    @Test
    void aProgramIsRequired() {
        CliRun r = run("minicluster", "--stock");
        assertEquals(CamdoopCli.USAGE, r.status());
        assertTrue(r.err().contains("PROGRAM"), r.err());
    }
}
