package org.camdoop.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The command line of {@code camdoop demo}. Its end-to-end run (two mini clusters, about 75 s) is not repeated in the
 * suite: CamdoopWordCountTest in integration-tests runs the same wordcount both ways on one cluster.
 */
class DemoCommandTest {

    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    @Test
    void helpNamesTheOptionsAndWhatTheReduceTimeIs() {
        CliRun r = run("demo", "--help");
        assertEquals(0, r.status());
        for (String s : new String[] {"--mb", "--work", "--keep", "--json", "MILLIS_REDUCES"}) {
            assertTrue(r.out().contains(s), s + " in:\n" + r.out());
        }
    }

    @Test
    void aCorpusOfNoMegabytesIsAUsageError() {
        CliRun r = run("demo", "--mb", "0");
        assertEquals(CamdoopCli.USAGE, r.status());
        assertEquals("camdoop demo: --mb must be between 1 and 512, got 0", r.err().strip());
    }

    @Test
    void aCorpusTooBigForADemoIsAUsageError() {
        CliRun r = run("demo", "--mb", "513");
        assertEquals(CamdoopCli.USAGE, r.status());
        assertEquals("camdoop demo: --mb must be between 1 and 512, got 513", r.err().strip());
    }

    @Test
    void aNonNumberIsAUsageError() {
        CliRun r = run("demo", "--mb", "ten");
        assertEquals(CamdoopCli.USAGE, r.status());
        assertTrue(r.err().startsWith("camdoop: Invalid value for option '--mb'"), r.err());
    }
}
