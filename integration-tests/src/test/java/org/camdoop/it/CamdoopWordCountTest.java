package org.camdoop.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.camdoop.minicluster.MiniClusterResult;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same wordcount with Camdoop's collector and shuffle and with the stock shuffle (the baseline, checked against an
 * in-memory count), at the same time on one cluster: the outputs must be equal byte for byte. The cluster's
 * NodeManagers run {@code CamdoopShuffleHandler} as {@code mapreduce_shuffle} with trust on first use off: the daemons
 * learn each job's secret and user only from the NodeManager, find the map outputs themselves, and every registration
 * and shuffle is proved with the job's real secret. The stock job's reduce fetches from the same handlers over HTTP.
 */
// The classes that share the run's mini cluster run first (SharedCamdoopCluster.PerRun).
@Order(SharedCamdoopCluster.CLASS_ORDER)
class CamdoopWordCountTest {

    @RegisterExtension
    static final SharedCamdoopCluster.PerRun SHARED = new SharedCamdoopCluster.PerRun();

    @Test
    @Timeout(400)
    void camdoopOutputEqualsStockOutput(@TempDir Path dir) throws Exception {
        Path in = dir.resolve("in");
        WordCountInput.write(in, 3, 4000, 7);

        Path stockOut = dir.resolve("out-stock");
        Path camdoopOut = dir.resolve("out-camdoop");
        SharedCamdoopCluster.StockAndCamdoop both = SHARED.cluster().runSideBySide(
                List.of("wordcount", in.toString(), stockOut.toString()),
                List.of("wordcount", in.toString(), camdoopOut.toString()));
        MiniClusterResult stock = both.stock();
        MiniClusterResult camdoop = both.camdoop();

        Configuration cluster = new Configuration(false);
        cluster.addResource(new org.apache.hadoop.fs.Path(
                SHARED.cluster().camdoopClientConf().resolve("yarn-site.xml").toUri()));
        assertEquals("org.camdoop.shuffle.daemon.CamdoopShuffleHandler",
                cluster.get("yarn.nodemanager.aux-services.mapreduce_shuffle.class"));
        assertEquals("mapreduce_shuffle", cluster.get("yarn.nodemanager.aux-services"));
        assertFalse(cluster.getBoolean("camdoop.daemon.job-token.trust-on-first-use", false));

        // The stock run is the baseline: a real YARN job on the same cluster, without the two job keys.
        CamdoopRuns.assertRanOnTheStockShuffle(stock);
        assertTrue(Files.exists(stockOut.resolve("_SUCCESS")), "the stock job committed its output");
        assertEquals(1, stock.jobs().size(), "one YARN job (not the LocalJobRunner): " + stock.jobs());
        // One map per input file, plus any speculative attempt a loaded 2-core machine launches (and kills).
        assertTrue(stock.counters().get("TOTAL_LAUNCHED_MAPS") >= 3, "one map per input file: " + stock.counters());
        com.fasterxml.jackson.databind.JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(stock.toJson());
        assertEquals(stock.counters().get("REDUCE_SHUFFLE_BYTES"), json.get("counters").get("REDUCE_SHUFFLE_BYTES")
                .asLong(), "the runner's JSON carries the counters");
        assertEquals(0, camdoop.exit(), "Camdoop wordcount's exit status");
        // The data really went through Camdoop: no reduce attempt fell back to the stock shuffle, the reducer read the
        // root's stream, and combining on the torus shrank it below what the map outputs held.
        Map<String, Long> counters = camdoop.counters();
        assertEquals(0L, counters.getOrDefault("Reduce attempts on the stock shuffle", 0L), counters.toString());
        long received = counters.getOrDefault("Bytes the reducer received", 0L);
        assertTrue(received > 0, "the reducer received nothing from Camdoop: " + counters);
        assertTrue(received < counters.getOrDefault("Bytes the map outputs held", 0L), counters.toString());
        assertTrue(counters.getOrDefault("Records combined on path", 0L) > 0, counters.toString());
        assertHadoopCountersMeanWhatGettingStartedSays(stock.counters(), counters);
        assertEquals(WordCountInput.expectedOutput(in), WordCountInput.actualOutput(stockOut));
        assertArrayEquals(CamdoopRuns.partFiles(stockOut), CamdoopRuns.partFiles(camdoopOut), "reducer output files");
        for (String part : CamdoopRuns.partFiles(stockOut)) {
            assertArrayEquals(Files.readAllBytes(stockOut.resolve(part)), Files.readAllBytes(camdoopOut.resolve(part)),
                    part);
        }
    }

    /** The table "Hadoop's own counters ... mean something else" in docs/getting-started.md, checked. */
    private static void assertHadoopCountersMeanWhatGettingStartedSays(Map<String, Long> stock,
            Map<String, Long> camdoop) {
        String both = "stock " + stock + "\ncamdoop " + camdoop;
        // Reduce shuffle bytes: what the reducer received after on-path combining, not the map output fetched.
        assertEquals(camdoop.get("Bytes the reducer received"), camdoop.get("REDUCE_SHUFFLE_BYTES"), both);
        assertEquals(stock.get("REDUCE_SHUFFLE_BYTES"), camdoop.get("Bytes the map outputs held"), both);
        assertEquals(camdoop.get("Records the reducer received"), camdoop.get("REDUCE_INPUT_RECORDS"), both);
        // Spilled records: the stock reducer spills each record it fetched once (input.buffer.percent 0); Camdoop's
        // reducer never spills, so only the maps' spills remain, the same as the stock run's.
        assertEquals(stock.get("SPILLED_RECORDS") - stock.get("REDUCE_INPUT_RECORDS"), camdoop.get("SPILLED_RECORDS"),
                both);
        assertEquals(0L, camdoop.get("MERGED_MAP_OUTPUTS"), both);
        assertEquals(0L, camdoop.get("FAILED_SHUFFLE"), both);
    }
}
