package org.camdoop.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimulateCommandTest {

    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    @Test
    void onePointPrintsBothModesAndTheBounds() {
        CliRun r = run("simulate", "--shape", "3x3x3");
        assertEquals(0, r.status(), r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals("torus 3x3x3: 27 servers, six trees, 2.00 MB per server, 1.00 Gbit/s links", lines.get(0));
        // camdoop: M/6 per link; noagg: 26 M / 6 into the root; switch: 26 M over one link, or six.
        assertTrue(lines.get(2).matches("point +0\\.0 +1 +0\\.002667 +0\\.06933 +0\\.4160 +0\\.06933 +0\\.4160 +156x"),
                lines.get(2));
        assertTrue(r.err().startsWith("simulate 3x3x3: figure point S=0.0 R=1: camdoop 0.002667 s"), r.err());
    }

    @Test
    void aFigureSweepsItsPointsAsJsonAndCsv(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("fig.csv");
        CliRun r = run("simulate", "--shape", "2x2x2", "--figure", "7d", "--json", "--csv", csv.toString());
        assertEquals(0, r.status(), r.err());
        JsonNode doc = new ObjectMapper().readTree(r.out());
        JsonNode points = doc.get("points");
        assertEquals(4, points.size()); // R = 1, 2, 4, 8
        for (JsonNode p : points) {
            assertEquals("7d", p.get("figure").asText());
            assertEquals(0.0, p.get("ratio_s").asDouble());
            assertTrue(p.get("noagg_s").asDouble() >= p.get("camdoop_s").asDouble());
        }
        assertEquals(8, points.get(3).get("reducers").asInt());
        assertEquals(4, r.err().lines().count(), "one progress line per point");
        List<String> rows = Files.readAllLines(csv);
        assertEquals(5, rows.size());
        assertTrue(rows.get(0).startsWith("figure,ratio_s,reducers,camdoop_s,noagg_s,switch_1g_s"), rows.get(0));
    }

    @Test
    void plotsDrawOnePngPerPanelWithPoints(@TempDir Path dir) throws Exception {
        Path plots = dir.resolve("plots");
        CliRun r = run("simulate", "--shape", "2x2x2", "--figure", "all", "--plots", plots.toString());
        assertEquals(0, r.status(), r.err());
        try (java.util.stream.Stream<Path> files = Files.list(plots)) {
            assertEquals(List.of("sim-figure6-r1.png", "sim-figure6-r8.png", "sim-figure7c-s1.png",
                    "sim-figure7d-s0.png"), files.map(f -> f.getFileName().toString()).sorted().toList());
        }
        java.awt.image.BufferedImage img = javax.imageio.ImageIO.read(plots.resolve("sim-figure7d-s0.png").toFile());
        assertEquals(org.camdoop.sim.plot.LogTimeChart.WIDTH, img.getWidth());
    }

    @Test
    void oneModeLeavesTheOtherEmpty() throws Exception {
        CliRun r = run("simulate", "--shape", "2x2x2", "--mode", "noagg", "--ratio-s", "1", "--reducers", "8", "--json");
        assertEquals(0, r.status(), r.err());
        JsonNode p = new ObjectMapper().readTree(r.out()).get("points").get(0);
        assertTrue(p.get("camdoop_s").isNull());
        assertTrue(p.get("noagg_s").asDouble() > 0);
    }

    @Test
    void badArgumentsExitTwo() {
        assertEquals("camdoop simulate: unknown figure '8': expected 6, 7c, 7d or all",
                run("simulate", "--shape", "2x2x2", "--figure", "8").err().trim());
        assertEquals("camdoop simulate: --reducers must be in [1, 8], got 9",
                run("simulate", "--shape", "2x2x2", "--reducers", "9").err().trim());
        assertEquals("camdoop simulate: S must be in [0, 1], got 1.5",
                run("simulate", "--shape", "2x2x2", "--ratio-s", "1.5").err().trim());
        assertEquals(2, run("simulate", "--shape", "2x2x2", "--mode", "direct").status());
    }
}
