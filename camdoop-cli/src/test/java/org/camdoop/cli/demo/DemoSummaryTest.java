package org.camdoop.cli.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.camdoop.minicluster.MiniClusterResult;
import org.junit.jupiter.api.Test;

/** The demo's rows, table and JSON from hand-made results; no cluster. */
class DemoSummaryTest {

    private static final MiniClusterResult STOCK = new MiniClusterResult(0, 31.25, Map.of(
            "MILLIS_REDUCES", 12_400L, "REDUCE_SHUFFLE_BYTES", 3_000_000L, "MAP_OUTPUT_MATERIALIZED_BYTES", 3_000_000L),
            List.of("job_1_0001"));
    private static final MiniClusterResult CAMDOOP = new MiniClusterResult(0, 28.0, Map.of(
            "MILLIS_REDUCES", 9_050L, "Bytes the reducer received", 1_000_000L, "Bytes the map outputs held",
            4_000_000L, "Bytes sent on torus links", 5_500_000L, "REDUCE_SHUFFLE_BYTES", 0L),
            List.of("job_2_0001"));

    @Test
    void stockRowReadsHadoopsCountersAndHasNoTorusBytes() {
        DemoRow row = DemoRow.stock(STOCK);
        assertEquals("stock", row.name());
        assertEquals(3_000_000L, row.reducerBytes().getAsLong());
        assertEquals(12_400L, row.reduceMillis().getAsLong());
        assertTrue(row.torusLinkBytes().isEmpty());
        assertEquals(OptionalDouble.of(1.0), row.combineRatio());
    }

    @Test
    void camdoopRowReadsTheCamdoopCounters() {
        DemoRow row = DemoRow.camdoop(CAMDOOP);
        assertEquals(1_000_000L, row.reducerBytes().getAsLong());
        assertEquals(5_500_000L, row.torusLinkBytes().getAsLong());
        assertEquals(OptionalDouble.of(0.25), row.combineRatio());
    }

    @Test
    void missingCountersShowAsDashesAndNoRatio() {
        DemoRow row = DemoRow.stock(new MiniClusterResult(0, 1.0, Map.of(), List.of()));
        assertTrue(row.combineRatio().isEmpty());
        DemoSummary summary = new DemoSummary(10, row, DemoRow.camdoop(CAMDOOP), true);
        assertEquals("stock         1.0            -                -                -        -",
                summary.table().lines().toList().get(1));
    }

    @Test
    void tableHasOneRowPerRunAndTheVerdict() {
        DemoSummary summary = new DemoSummary(12 << 20, DemoRow.stock(STOCK), DemoRow.camdoop(CAMDOOP), true);
        assertEquals(List.of(
                "run         job s     reduce s    reducer bytes      torus bytes    ratio",
                "stock        31.3         12.4          3000000                -    1.000",
                "camdoop      28.0          9.1          1000000          5500000    0.250",
                "outputs identical: yes"), summary.table().lines().toList());
    }

    @Test
    void differingOutputsSayNo() {
        DemoSummary summary = new DemoSummary(1, DemoRow.stock(STOCK), DemoRow.camdoop(CAMDOOP), false);
        assertTrue(summary.table().endsWith("outputs identical: NO\n"), summary.table());
    }

    @Test
    void jsonHasBothRunsWithNullForWhatIsMissing() {
        DemoSummary summary = new DemoSummary(12, DemoRow.stock(STOCK), DemoRow.camdoop(CAMDOOP), true);
        assertEquals("{\"corpusBytes\":12,"
                + "\"stock\":{\"jobSeconds\":31.25,\"reduceTaskMillis\":12400,\"reducerBytes\":3000000,"
                + "\"mapOutputBytes\":3000000,\"torusLinkBytes\":null,\"combineRatio\":1.0},"
                + "\"camdoop\":{\"jobSeconds\":28.0,\"reduceTaskMillis\":9050,\"reducerBytes\":1000000,"
                + "\"mapOutputBytes\":4000000,\"torusLinkBytes\":5500000,\"combineRatio\":0.25},"
                + "\"outputsIdentical\":true}", summary.toJson());
    }
}
