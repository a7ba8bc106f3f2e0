package org.camdoop.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code camdoop bench shuffle} through the command line: argument errors, and one tiny run's JSON. */
class ShuffleBenchCommandTest {

    @ParameterizedTest
    @ValueSource(strings = {"--ratio-s=1.5", "--ratio-s=-0.1", "--reducers=0", "--reducers=28", "--mode=fast",
        "--shape=0x3x3", "--trees=many", "--mb-per-server=0", "--link-mbps=-1",
        "--profile=/no/such/directory/shuffle.jfr"})
    void badArgumentsExitTwoWithOneLine(String bad) {
        List<String> args = new ArrayList<>(List.of("bench", "shuffle", "--quiet", bad));
        if (!bad.startsWith("--mode")) {
            args.add("--mode=camdoop");
        }
        CliRun r = CliRun.of(args.toArray(String[]::new));
        assertEquals(CamdoopCli.USAGE, r.status(), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("camdoop shuffle: "), r.err());
        assertFalse(r.out().contains("sha256"));
    }

    @Test
    void theCommandPrintsJsonWhoseDigestsMatch() throws Exception {
        CliRun r = CliRun.of("bench", "shuffle", "--shape", "2x2x2", "--mode", "camdoop", "--mb-per-server", "0.01",
                "--link-mbps", "0", "--json", "--quiet", "--no-warmup");
        assertEquals(0, r.status(), r.err());
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertEquals(json.get("reference_sha256"), json.get("output_sha256"));
        assertEquals("2x2x2", json.get("shape").asText());
    }

    @Test
    void profileRecordsAJfrFileOfTheTimedPart(@TempDir Path dir) throws Exception {
        Path jfr = dir.resolve("shuffle.jfr");
        CliRun r = CliRun.of("bench", "shuffle", "--shape", "2x2x2", "--mode", "camdoop", "--mb-per-server", "0.01",
                "--link-mbps", "0", "--quiet", "--no-warmup", "--profile", jfr.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.err().contains("JFR profile of the timed part written to " + jfr), r.err());
        List<RecordedEvent> events = RecordingFile.readAllEvents(jfr);
        assertFalse(events.isEmpty());
        assertTrue(events.stream().anyMatch(e -> e.getEventType().getName().equals("jdk.ThreadStart")
                && e.getThread("thread") != null && e.getThread("thread").getJavaName().startsWith("bench-reducer-")),
                "the recording covers the start of the timed part's reducer thread");
    }
}
