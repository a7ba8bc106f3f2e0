package org.camdoop.cli.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.camdoop.cli.CamdoopCli;
import org.junit.jupiter.api.Test;

/** A short run of the real tool: real daemons, real frames at both ports, real shuffles beside them. */
class FuzzCommandTest {

    @Test
    void twentyThousandFramesLeaveTheDaemonsAndTheShuffleUnharmed() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = CamdoopCli.run(new PrintWriter(out, true), new PrintWriter(err, true), "fuzz", "--frames", "20000",
                "--mb-per-server", "0.25", "--seed", "7");
        String report = out.toString();
        assertEquals(0, exit, report + err);
        assertTrue(report.contains("malformed replies      0\n"), report);
        assertTrue(report.contains("daemon threads died    none\n"), report);
        assertTrue(report.contains("buffers reserved       [0, 0, 0] before, [0, 0, 0] after\n"), report);
        assertTrue(report.matches("(?s).*shuffles under attack  [1-9][0-9]*, 0 differing from the reference; after:"
                + " identical\n.*"), report);
        assertTrue(report.matches("(?s).*torus ports          [0-9,]+ frames on [1-9][0-9,]* connections.*"), report);
        assertTrue(report.endsWith("camdoop fuzz: PASSED\n"), report);
    }
}
