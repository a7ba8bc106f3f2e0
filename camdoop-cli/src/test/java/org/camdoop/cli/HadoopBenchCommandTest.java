package org.camdoop.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code camdoop bench hadoop}'s arguments. The benchmark itself is not run here: even its smallest sizes take about
 * three minutes (six jobs on a mini cluster), so it is exercised by hand (docs/benchmarks-hadoop.md).
 */
class HadoopBenchCommandTest {

    @Test
    void helpSaysWhatIsMeasuredAndThatStockNetworkBytesAreEstimated() {
        CliRun r = CliRun.of("bench", "hadoop", "--help");
        assertEquals(0, r.status());
        for (String option : new String[] {"--quick", "--wordcount-mb", "--sort-mb", "--maps", "--reduces", "--out",
            "--json", "--work"}) {
            assertTrue(r.out().contains(option), option + " in " + r.out());
        }
        assertTrue(r.out().contains("ESTIMATED"), r.out());
    }

    @Test
    void zeroMapsIsAUsageErrorNamingTheOption() {
        CliRun r = CliRun.of("bench", "hadoop", "--quick", "--maps", "0");
        assertEquals(CamdoopCli.USAGE, r.status());
        assertEquals("camdoop hadoop: --maps must be from 1 to 48, got 0", r.err().strip());
    }

    @Test
    void tooBigACorpusIsAUsageErrorNamingTheOption() {
        CliRun r = CliRun.of("bench", "hadoop", "--wordcount-mb", "100000");
        assertEquals(CamdoopCli.USAGE, r.status());
        assertEquals("camdoop hadoop: --wordcount-mb must be from 1 to 4096, got 100000", r.err().strip());
        r = CliRun.of("bench", "hadoop", "--sort-mb", "-1");
        assertEquals("camdoop hadoop: --sort-mb must be from 1 to 4096, got -1", r.err().strip());
        r = CliRun.of("bench", "hadoop", "--reduces", "49");
        assertEquals("camdoop hadoop: --reduces must be from 1 to 48, got 49", r.err().strip());
    }

    @Test
    void aNonNumberIsAUsageError() {
        CliRun r = CliRun.of("bench", "hadoop", "--maps", "many");
        assertEquals(CamdoopCli.USAGE, r.status());
        assertEquals("camdoop: Invalid value for option '--maps': 'many' is not an int", r.err().strip());
    }

    @Test
    void anOutThatIsAFileIsAUsageError(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("f"), "x");
        CliRun r = CliRun.of("bench", "hadoop", "--quick", "--out", file.toString());
        assertEquals(CamdoopCli.USAGE, r.status());
        assertEquals("camdoop hadoop: --out " + file + " is not a directory", r.err().strip());
    }
}
