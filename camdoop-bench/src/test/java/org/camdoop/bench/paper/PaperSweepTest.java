package org.camdoop.bench.paper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.imageio.ImageIO;
import org.camdoop.sim.plot.LogTimeChart;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tiny sweep (10 KB per server, fast links) through the real runner and every output. Checks the outputs' contents
 * and the accounting, never the times: at this size the network is not the bottleneck.
 */
class PaperSweepTest {

    /**
     * Three workloads: S=0 at R=1 and R=27 (Figure 5), S=1 at R=1 (Figure 7a; 7b's S=0, R=1 is Figure 5's), and
     * Figure 10's one size equal to the others, so it is Figure 5's S=0, R=1 again.
     */
    private static final PaperPlan TINY = new PaperPlan(0.01, 20, 1024, List.of(0.0), List.of(1), List.of(0.01), 3);

    @TempDir
    static Path out;

    private static PaperResults results;
    private static String summary;
    private static final StringWriter progress = new StringWriter();

    @BeforeAll
    static void sweep() throws Exception {
        results = new PaperSweep(TINY, Optional.of(new PrintWriter(progress, true))).run();
        summary = PaperBench.writeOutputs(results, out, "test");
    }

    @Test
    void everyPointRanAndMatchedItsReference() {
        assertEquals(TINY.points(), List.copyOf(results.results().keySet()));
        assertEquals(9, results.results().size());
        results.results().forEach((p, r) -> assertTrue(r.correct(), p.describe()));
        assertTrue(progress.toString().contains("bench paper: [9/9] direct S=1 R=1 0.01 MB/server"),
                progress.toString());
    }

    @Test
    void theCsvHasOneRowPerPointWithTheAccounting() throws Exception {
        List<String> lines = Files.readAllLines(out.resolve(PaperBench.CSV_FILE));
        assertEquals(String.join(",", PaperCsv.COLUMNS), lines.get(0));
        assertEquals(10, lines.size());
        Map<String, Map<String, String>> byPoint = new HashMap<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split(",", -1);
            assertEquals(PaperCsv.COLUMNS.size(), cells.length, line);
            Map<String, String> row = new HashMap<>();
            for (int i = 0; i < cells.length; i++) {
                row.put(PaperCsv.COLUMNS.get(i), cells[i]);
            }
            assertEquals("true", row.get("correct"), line);
            byPoint.put(row.get("mode") + " " + row.get("ratio_s") + " " + row.get("reducers") + " "
                    + row.get("mb_per_server"), row);
        }
        Map<String, String> camdoop = byPoint.get("camdoop 0 1 0.01");
        Map<String, String> noagg = byPoint.get("noagg 0 1 0.01");
        assertEquals(camdoop.get("output_bytes"), camdoop.get("bytes_into_roots"), "combined on path to the output");
        assertEquals(noagg.get("intermediate_bytes"), noagg.get("bytes_into_roots"), "every record reaches the root");
        assertTrue(Double.parseDouble(camdoop.get("switch_1link_seconds"))
                > 5 * Double.parseDouble(camdoop.get("switch_6links_seconds")));
    }

    @Test
    void everyFigureIsAPngOfTheChartSize() throws Exception {
        for (PaperFigure f : PaperFigure.values()) {
            BufferedImage img = ImageIO.read(out.resolve(f.fileName() + ".png").toFile());
            assertEquals(LogTimeChart.WIDTH, img.getWidth(), f.name());
            assertEquals(LogTimeChart.HEIGHT, img.getHeight(), f.name());
            int[] pixels = img.getRGB(0, 0, img.getWidth(), img.getHeight(), null, 0, img.getWidth());
            assertTrue(Arrays.stream(pixels).distinct().count() > 10, "something is drawn in " + f.fileName());
        }
    }

    @Test
    void theSummaryPutsOurRatiosBesideThePapers() {
        assertTrue(summary.contains("| S=0, R=1 (Figure 5a) | "), summary);
        assertTrue(summary.contains(" | 12.67x | "), summary);
        assertTrue(summary.contains(" | 3.93x | "), summary);
        // Workloads this plan did not run (S=1 at R=1 is in Figure 7a here; 20 KB is not) are left out, not zero.
        assertTrue(summary.contains("| S=1, R=1 (Figure 5a: \"the same\") | "), summary);
        assertTrue(!summary.contains("20 KB per server"), summary);
        assertTrue(summary.contains("![Figure 10: small inputs, S=0, R=1](figure10-small.png)"), summary);
    }
}
