package org.camdoop.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.camdoop.minicluster.MiniClusterOptions;
import org.camdoop.minicluster.MiniClusterResult;
import org.camdoop.minicluster.MiniClusterRunner;
import org.camdoop.torus.topology.TorusShape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The unmodified examples jar's wordcount on a three-NodeManager MiniMRYarnCluster with Hadoop's own shuffle, through
 * the runner {@code camdoop minicluster --stock} uses: the baseline every Camdoop run is compared with.
 */
class StockWordCountTest {

    @Test
    @Timeout(240)
    void stockWordCountMatchesAnInMemoryCount(@TempDir Path dir) throws Exception {
        Path in = dir.resolve("in");
        Path out = dir.resolve("out");
        WordCountInput.write(in, 3, 4000, 42);

        MiniClusterOptions options = new MiniClusterOptions(3, TorusShape.parse("3x3x3"), true, dir.resolve("work"),
                List.of("wordcount", in.toString(), out.toString()), Optional.empty());
        MiniClusterResult result = new MiniClusterRunner(options, System.out, System.err).run();

        assertEquals(0, result.exit(), "wordcount's exit status");
        assertTrue(Files.exists(out.resolve("_SUCCESS")), "the job committed its output");
        assertEquals(WordCountInput.expectedOutput(in), WordCountInput.actualOutput(out));
        assertEquals(1, result.jobs().size(), "one YARN job (not the LocalJobRunner): " + result.jobs());

        JsonNode json = new ObjectMapper().readTree(result.toJson());
        assertEquals(0, json.get("exit").asInt());
        assertTrue(json.get("seconds").asDouble() > 0);
        JsonNode counters = json.get("counters");
        assertTrue(counters.get("REDUCE_SHUFFLE_BYTES").asLong() > 0, "counters: " + counters);
        assertEquals(3, counters.get("TOTAL_LAUNCHED_MAPS").asLong(), "one map per input file");
    }
}
