package org.camdoop.bench.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ClusterReportTest {

    private static final ClusterBench.Sizes SIZES = new ClusterBench.Sizes(256, 1_000_000, 0.99, 128, 128, 9, 3, 27);

    private static ClusterReport.Row row(String job, boolean camdoop, double jobS, double shuffleS, long torus,
            long sw, long received) {
        JobFigures f = new JobFigures(job, camdoop ? "camdoop" : "stock", "job_1_000" + (camdoop ? 2 : 1), jobS,
                shuffleS, 0, camdoop ? "torus-link-counter" : "estimate", 0, 5_000_000, 1_000_000, 0, 0, received, 0,
                0, 0, 9, 3, 9);
        return new ClusterReport.Row(f, new TestbedCounters(torus, sw, 90, 100), jobS + 5);
    }

    private static final ClusterReport REPORT = new ClusterReport(SIZES, 50, 9, List.of(
            row("wordcount", false, 50, 10, 1_000_000, 100_000_000, 0),
            row("wordcount", true, 40, 4, 45_000_000, 1_000_000, 18_750_000),
            row("sort", false, 20, 8, 0, 200_000_000, 0),
            row("sort", true, 23, 9, 400_000_000, 0, 100_000_000)));

    @Test
    void theTargetsAreJudgedOnTheRatiosOfOneRun() {
        String table = REPORT.table();
        assertTrue(table.contains("targets: wordcount shuffle+reduce s <= 0.5x stock: 0.400 (met),"
                + " wordcount wire MB <= 0.5x stock: 0.455 (met), sort job s <= 1.1x stock: 1.150 (MISSED)"), table);
    }

    @Test
    void theNetworkBoundIsTheSlowestWayTheShuffleBytesCanGo() {
        // 50 Mbit/s = 6.25 MB/s. Stock: half the switch wire bytes (each switched byte is on two wires) over 3 ports.
        assertEquals(100e6 / 2 / (3 * 6.25e6), REPORT.rows().get(0).networkBoundSeconds(50, 162), 1e-9);
        // Camdoop: 18.75 MB over 3 x 6 reducer in-links (0.167 s) or 45 MB over 162 link directions (0.044 s).
        assertEquals(18.75e6 / (18 * 6.25e6), REPORT.rows().get(1).networkBoundSeconds(50, 162), 1e-9);
        assertEquals(162, REPORT.torusLinkDirections());
    }

    @Test
    void sizesOutOfRangeNameTheirOption() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ClusterBench.Sizes(256, 1_000_000, 0, 128, 128, 9, 3, 27));
        assertEquals("--zipf must be above 0 and below 4, got 0.0", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> new ClusterBench.Sizes(256, 1_000_000, 0.99, 128, 128, 0, 3, 27));
        assertEquals("--maps must be from 1 to 48, got 0", e.getMessage());
    }
}
