package org.camdoop.bench.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchReportTest {

    private static JobFigures row(String job, String shuffle, double jobS, double shuffleS, long network, long disk,
            long output) {
        boolean camdoop = shuffle.equals("camdoop");
        return new JobFigures(job, shuffle, "job_1_000" + (camdoop ? 2 : 1), jobS, shuffleS, network,
                camdoop ? "torus-link-counter" : job.equals("sort") ? "estimate" : "fetcher-logs", camdoop ? 0 : 555,
                disk, output,
                900, 1000, camdoop ? 900 : 0, camdoop ? 1000 : 0, camdoop ? 7 : 0, 0, 3, 3, 3);
    }

    private static final BenchReport REPORT = new BenchReport(BenchSizes.QUICK, List.of(
            row("wordcount", "stock", 20, 10, 600, 4000, 1000),
            row("wordcount", "camdoop", 30, 5, 300, 2000, 1000),
            row("sort", "stock", 10, 4, 0, 100, 100),
            row("sort", "camdoop", 12, 6, 50, 150, 100)));

    @Test
    void ratiosAreCamdoopOverStockAndUndefinedOverZero() {
        BenchReport.Figure jobS = BenchReport.FIGURES.get(0);
        BenchReport.Figure network = BenchReport.FIGURES.get(2);
        BenchReport.Figure netDisk = BenchReport.FIGURES.get(5);
        assertEquals(1.5, REPORT.ratio("wordcount", jobS).getAsDouble(), 1e-9);
        assertEquals(0.5, REPORT.ratio("wordcount", network).getAsDouble(), 1e-9);
        assertEquals(1000.0 / 3000, REPORT.ratio("wordcount", netDisk).getAsDouble(), 1e-9);
        assertTrue(REPORT.ratio("sort", network).isEmpty());
        assertTrue(REPORT.ratio("sort", netDisk).isEmpty(), "stock's disk net of output is 0");
        assertEquals("n/a", BenchReport.ratioText(REPORT.ratio("sort", network)));
        assertEquals("0.500", BenchReport.ratioText(REPORT.ratio("wordcount", network)));
    }

    @Test
    void tableHasARowPerJobAndShuffleThenTheRatioRow() {
        String[] lines = REPORT.table().split("\n");
        assertTrue(lines[0].contains("24 MiB") && lines[0].contains("16 MiB") && lines[0].contains("3 maps"), lines[0]);
        assertTrue(lines[1].startsWith("job        shuffle"), lines[1]);
        assertEquals(List.of("wordcount", "stock", "20.0", "10.0", "600", "4000", "1000", "3000"),
                List.of(lines[2].trim().split("\\s+")));
        assertEquals(List.of("wordcount", "camdoop", "30.0", "5.0", "300", "2000", "1000", "1000"),
                List.of(lines[3].trim().split("\\s+")));
        assertEquals(List.of("wordcount", "ratio", "1.500", "0.500", "0.500", "0.500", "1.000", "0.333"),
                List.of(lines[4].trim().split("\\s+")));
        assertEquals(List.of("sort", "ratio", "1.200", "1.500", "n/a", "1.500", "1.000", "n/a"),
                List.of(lines[7].trim().split("\\s+")));
        assertTrue(REPORT.table().contains("  sort stock: ESTIMATE"), "an estimated stock network figure says so");
        assertTrue(REPORT.table().contains("  wordcount stock: exact, from the reduce tasks' Fetcher log lines (the"
                + " counter-based estimate would say 555)"), REPORT.table());
        assertTrue(REPORT.table().contains("camdoop combine, wordcount: the reducers received 900 bytes of the 1000"
                + " bytes the map outputs held (0.900), 7 records combined on path"), REPORT.table());
    }

    @Test
    void csvHasOneLinePerJobAndShuffle() {
        String[] lines = REPORT.csv().split("\n");
        assertEquals(5, lines.length);
        assertEquals(BenchReport.CSV_HEADER, lines[0]);
        assertEquals("wordcount,camdoop,job_1_0002,30.0,5.0,300,torus-link-counter,0,2000,1000,1000,900,1000,900,1000,"
                + "7,0,3,3,3", lines[2]);
        assertEquals(lines[0].split(",").length, lines[4].split(",").length);
    }

    @Test
    void jsonHasSizesRowsAndRatios() throws Exception {
        JsonNode root = new ObjectMapper().readTree(REPORT.json());
        assertEquals(24, root.get("sizes").get("wordcount_mb").asInt());
        assertEquals(4, root.get("rows").size());
        assertEquals("camdoop", root.get("rows").get(1).get("shuffle").asText());
        assertEquals(300, root.get("rows").get(1).get("network_bytes").asLong());
        assertEquals("fetcher-logs", root.get("rows").get(0).get("network_source").asText());
        assertEquals(555, root.get("rows").get(0).get("network_estimate_bytes").asLong());
        JsonNode wc = root.get("ratios_camdoop_over_stock").get("wordcount");
        assertEquals(0.5, wc.get("network_bytes").asDouble(), 1e-9);
        assertEquals(0.5, wc.get("shuffle_reduce_s").asDouble(), 1e-9);
        assertTrue(root.get("ratios_camdoop_over_stock").get("sort").get("network_bytes").isNull());
    }
}
