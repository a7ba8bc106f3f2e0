package org.camdoop.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code camdoop bench micro}'s argument errors (the benchmarks themselves are tested without JMH). */
class MicroBenchCommandTest {

    private static void assertUsageError(String message, String... args) {
        CliRun r = CliRun.of(args);
        assertEquals(2, r.status(), r.err());
        assertEquals(message, r.err().lines().findFirst().orElse(""));
        assertEquals("", r.out());
    }

    @Test
    void aBadRegexIsOneLineAndExitTwo() {
        assertUsageError("camdoop micro: --include '(' is not a regular expression: Unclosed group",
                "bench", "micro", "--quick", "--include", "(");
    }

    @Test
    void anOutFileThatIsNotADirectoryIsRefused(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("taken"), "x");
        assertUsageError("camdoop micro: --out " + file + " exists and is not a directory",
                "bench", "micro", "--out", file.toString());
    }

    @Test
    void aRegexMatchingNoBenchmarkIsRefused() {
        assertUsageError("camdoop micro: no benchmark matches --include 'NoSuchBenchmark'",
                "bench", "micro", "--include", "NoSuchBenchmark");
    }

    @Test
    void anUnknownOptionIsOneLineAndExitTwo() {
        assertUsageError("camdoop: Unknown option: '--forks'", "bench", "micro", "--forks");
    }
}
