package org.camdoop.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TopologyCommandTest {

    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    private static JsonNode json(String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("topology", "--json"));
        all.addAll(List.of(args));
        CliRun r = run(all.toArray(String[]::new));
        assertEquals(0, r.status(), r.err());
        return new ObjectMapper().readTree(r.out());
    }

    private static String key(JsonNode coord) {
        return coord.get(0).asInt() + "," + coord.get(1).asInt() + "," + coord.get(2).asInt();
    }

    @Test
    void jsonDescribesEveryVertexOfEveryTree() throws Exception {
        JsonNode doc = json("--shape", "5x3x7", "--root", "2,1,4");
        assertEquals("[5,3,7]", doc.get("shape").toString());
        assertEquals("[2,1,4]", doc.get("root").toString());
        assertEquals(6, doc.get("trees").size());
        for (JsonNode tree : doc.get("trees")) {
            assertEquals(105, tree.get("vertices").size());
            int rootChildren = 0;
            for (JsonNode v : tree.get("vertices")) {
                assertEquals(v.get("vertex"), v.get("host"), "no failures: every vertex on its own server");
                if (v.get("parent").isNull()) {
                    assertEquals("2,1,4", key(v.get("vertex")));
                    assertEquals(1, v.get("route").size());
                } else {
                    assertEquals(2, v.get("route").size(), "parent one hop away");
                    assertEquals(v.get("parent"), v.get("route").get(1));
                    if (key(v.get("parent")).equals("2,1,4")) {
                        rootChildren++;
                    }
                }
            }
            assertEquals(1, rootChildren);
        }
        assertTrue(doc.get("depth").get("max").asInt() >= 1);
        assertTrue(doc.get("depth").get("avg").asDouble() > 0);
    }

    @Test
    void aFailedServersVertexMovesAndEdgesFollowLivePaths() throws Exception {
        JsonNode doc = json("--shape", "3x3x3", "--failed", "1,1,1", "--failed", "1,1,2");
        for (JsonNode tree : doc.get("trees")) {
            Map<String, String> hostOf = new HashMap<>();
            for (JsonNode v : tree.get("vertices")) {
                hostOf.put(key(v.get("vertex")), key(v.get("host")));
            }
            assertTrue(!hostOf.get("1,1,1").equals("1,1,1") && !hostOf.get("1,1,2").equals("1,1,2"));
            for (JsonNode v : tree.get("vertices")) {
                JsonNode route = v.get("route");
                assertEquals(key(v.get("host")), key(route.get(0)));
                if (!v.get("parent").isNull()) {
                    assertEquals(hostOf.get(key(v.get("parent"))), key(route.get(route.size() - 1)));
                }
                for (JsonNode hop : route) {
                    assertTrue(!key(hop).equals("1,1,1") && !key(hop).equals("1,1,2"), "route through a failed server");
                }
            }
        }
    }

    @Test
    void shortestPathTreeAndSmallShapes() throws Exception {
        assertEquals(1, json("--shape", "4x4x4", "--trees", "shortest").get("trees").size());
        assertEquals(3, json("--shape", "2x2x2").get("trees").size());
        assertEquals(2, json("--shape", "4x1x1").get("trees").size());
        assertEquals(0, json("--shape", "1x1x1").get("trees").size());
    }

    @Test
    void summaryNamesTreesAndDepths() {
        CliRun r = run("topology", "--shape", "3x3x3");
        assertEquals(0, r.status());
        assertTrue(r.out().startsWith("torus 3x3x3: 27 servers, root 0,0,0\n6 disjoint trees (6 links per server)\n"),
                r.out());
        assertTrue(r.out().contains("depth over all trees: max 6, avg 3.73 hops (shortest-path floor 2.08)"), r.out());
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "--shape 0x3x3;camdoop topology: torus dimensions must be >= 1, got 0x3x3",
        "--shape 3x3x3 --root 3,0,0;camdoop topology: root 3,0,0 is outside the torus 3x3x3",
        "--shape 3x3x3 --root 1,1;camdoop topology: malformed coordinate '1,1': expected x,y,z",
        "--shape 1x1x2 --failed 0,0,0 --failed 0,0,1;"
            + "camdoop topology: every server of 1x1x2 has failed: nothing can host the trees",
        "--shape 3x3x3 --trees many;camdoop topology: unknown tree choice 'many': expected six or shortest",
        "--shape 3x3x3 --cut 0,0,0:2,2,2;camdoop topology: servers 0,0,0 and 2,2,2 are not neighbours on 3x3x3",
        "--root 1,1,1;camdoop: Missing required option: '--shape=AxBxC'"})
    void badArgumentsExitTwoWithOneLine(String args, String message) {
        List<String> all = new ArrayList<>(List.of("topology"));
        all.addAll(List.of(args.split(" ")));
        CliRun r = run(all.toArray(String[]::new));
        assertEquals(2, r.status());
        assertEquals(message, r.err().lines().findFirst().orElse(""));
        assertEquals("", r.out());
    }

    @Test
    void aPartitionedVertexExitsOneAndSaysSo() {
        List<String> args = new ArrayList<>(List.of("topology", "--shape", "3x3x3", "--json"));
        for (String n : new String[] {"0,1,1", "2,1,1", "1,0,1", "1,2,1", "1,1,0", "1,1,2"}) {
            args.add("--cut");
            args.add("1,1,1:" + n);
        }
        CliRun r = run(args.toArray(String[]::new));
        assertEquals(1, r.status());
        assertTrue(r.err().startsWith("camdoop topology: no live path from 1,1,1 to "), r.err());
        assertTrue(r.err().trim().endsWith("the failures partition the torus"), r.err());
    }
}
