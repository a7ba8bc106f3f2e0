package org.camdoop.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.camdoop.minicluster.MiniClusterResult;

/** Checks of runs of unmodified examples programs on a mini cluster. */
final class CamdoopRuns {

    private CamdoopRuns() {
    }

    /**
     * The run used Hadoop's own shuffle, although its cluster runs Camdoop: no map registered with a daemon, no reducer
     * read from one, and the reducers merged the map outputs they fetched.
     */
    static void assertRanOnTheStockShuffle(MiniClusterResult stock) {
        Map<String, Long> counters = stock.counters();
        assertEquals(0, stock.exit(), "stock run's exit status");
        assertEquals(0L, counters.getOrDefault("Bytes the map outputs held", 0L), counters.toString());
        assertEquals(0L, counters.getOrDefault("Bytes the reducer received", 0L), counters.toString());
        assertTrue(counters.getOrDefault("MERGED_MAP_OUTPUTS", 0L) > 0, "no fetched map output merged: " + counters);
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
