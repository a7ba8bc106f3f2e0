package org.camdoop.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.camdoop.minicluster.MiniClusterOptions;
import org.camdoop.minicluster.MiniClusterResult;
import org.camdoop.minicluster.MiniClusterRunner;
import org.camdoop.torus.topology.TorusShape;

/** Runs an unmodified examples program on a 3-NodeManager mini cluster, with or without Camdoop, and checks runs. */
final class CamdoopRuns {

    private CamdoopRuns() {
    }

    /** Runs {@code program args} with Camdoop ({@code stock} false) or Hadoop's own shuffle. */
    static MiniClusterResult run(Path work, boolean stock, List<String> programAndArgs) throws Exception {
        MiniClusterOptions options = new MiniClusterOptions(3, TorusShape.parse("3x3x3"), stock, work, programAndArgs,
                Optional.empty());
        return new MiniClusterRunner(options, System.out, System.err).run();
    }

    /** The run went through Camdoop: no reduce attempt fell back, and the reducers read the roots' streams. */
    static void assertWentThroughCamdoop(MiniClusterResult camdoop) {
        Map<String, Long> counters = camdoop.counters();
        assertEquals(0, camdoop.exit(), "Camdoop run's exit status");
        assertEquals(0L, counters.getOrDefault("Reduce attempts on the stock shuffle", 0L), counters.toString());
        assertTrue(counters.getOrDefault("Bytes the reducer received", 0L) > 0,
                "the reducers received nothing from Camdoop: " + counters);
    }

    /** The sorted names of an output directory's part files. */
    static String[] partFiles(Path outDir) throws IOException {
        try (var files = Files.list(outDir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("part-")).sorted()
                    .toArray(String[]::new);
        }
    }
}
