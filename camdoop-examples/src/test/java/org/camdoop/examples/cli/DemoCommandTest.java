package org.camdoop.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The command line of {@code camdoop demo}; the end-to-end run is CamdoopWordCountTest's in integration-tests. */
class DemoCommandTest {

    private record Run(int status, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = CamdoopCli.run(new PrintWriter(out), new PrintWriter(err), args);
        return new Run(status, out.toString(), err.toString());
    }

    @Test
    void helpNamesTheOptionsAndWhatTheReduceTimeIs() {
        Run r = run("demo", "--help");
        assertEquals(0, r.status());
        for (String s : new String[] {"--mb", "--work", "--keep", "--json", "MILLIS_REDUCES"}) {
            assertTrue(r.out().contains(s), s + " in:\n" + r.out());
        }
    }

    @Test
    void aCorpusOfNoMegabytesIsAUsageError() {
        Run r = run("demo", "--mb", "0");
        assertEquals(CamdoopCli.USAGE, r.status());
        assertEquals("camdoop demo: --mb must be between 1 and 512, got 0", r.err().strip());
    }

    @Test
    void aCorpusTooBigForADemoIsAUsageError() {
        Run r = run("demo", "--mb", "513");
        assertEquals(CamdoopCli.USAGE, r.status());
        assertEquals("camdoop demo: --mb must be between 1 and 512, got 513", r.err().strip());
    }

    @Test
    void aNonNumberIsAUsageError() {
        Run r = run("demo", "--mb", "ten");
        assertEquals(CamdoopCli.USAGE, r.status());
        assertTrue(r.err().startsWith("camdoop: Invalid value for option '--mb'"), r.err());
    }
}
