package org.camdoop.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code camdoop bench paper}'s argument errors (the sweep itself is tested in camdoop-bench). */
class PaperBenchCommandTest {

    @Test
    void badArgumentsExitTwoWithOneLine(@TempDir Path out) {
        CliRun run = CliRun.of("bench", "paper", "--quick", "--link-mbps", "0", "--out", out.resolve("x").toString());
        assertEquals(2, run.status());
        assertEquals("camdoop paper: --link-mbps must be > 0: the sweep compares times on shaped links\n", run.err());
    }
}
