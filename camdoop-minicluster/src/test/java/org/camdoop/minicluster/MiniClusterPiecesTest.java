package org.camdoop.minicluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runner's parts that need no cluster. */
class MiniClusterPiecesTest {

    @Test
    void mapreduceShuffleStaysCamdoopsWhenMiniMrOverwritesIt() {
        String key = "yarn.nodemanager.aux-services.mapreduce_shuffle.class";
        Configuration conf = new ShuffleHandlerPinnedConfiguration(new Configuration(false));
        assertEquals("org.camdoop.shuffle.daemon.CamdoopShuffleHandler", conf.get(key));
        // What MiniMRYarnCluster.serviceInit does.
        conf.setClass(key, org.apache.hadoop.mapred.ShuffleHandler.class, org.apache.hadoop.service.Service.class);
        assertEquals("org.camdoop.shuffle.daemon.CamdoopShuffleHandler", conf.get(key));
        assertEquals("org.camdoop.shuffle.daemon.CamdoopShuffleHandler", new Configuration(conf).get(key),
                "copies (the NodeManagers' YarnConfiguration) keep it");
        conf.set("yarn.nodemanager.aux-services", "mapreduce_shuffle");
        assertEquals("mapreduce_shuffle", conf.get("yarn.nodemanager.aux-services"), "other keys are left alone");
    }

    @Test
    void topologyFileHasEveryCoordinateOnLoopbackWithDistinctPorts(@TempDir Path dir) throws Exception {
        TorusLayout layout = TorusLayout.allocate(TorusShape.parse("3x3x3"), 3);
        Path file = layout.writeTopologyFile(dir.resolve("topology"));
        Topology topology = Topology.load(file);
        assertEquals("3x3x3", topology.shape().toString());
        Set<String> addresses = new java.util.HashSet<>();
        for (int i = 0; i < 27; i++) {
            String a = topology.address(i).toString();
            assertTrue(a.contains("127.0.0.1"), a);
            addresses.add(a);
        }
        assertEquals(27, addresses.size(), "one port per daemon");
        assertEquals(List.of("0,0,0", "1,0,0", "2,0,0"),
                layout.nodeManagerCoords().stream().map(TorusLayout::coordText).toList());
        assertEquals(24, layout.forwardingCoords().size());
        assertTrue(Files.readString(file).startsWith("# Written by camdoop minicluster"));
    }

    @Test
    void resultJsonHasExitSecondsCountersAndJobs() throws Exception {
        Map<String, Long> counters = new LinkedHashMap<>();
        counters.put("REDUCE_SHUFFLE_BYTES", 119L);
        counters.put("MAP_INPUT_RECORDS", 5000L);
        JsonNode json = new ObjectMapper().readTree(
                new MiniClusterResult(0, 12.34567, counters, List.of("job_1_0001")).toJson());
        assertEquals(0, json.get("exit").asInt());
        assertEquals(12.346, json.get("seconds").asDouble());
        assertEquals(119, json.get("counters").get("REDUCE_SHUFFLE_BYTES").asLong());
        assertEquals("job_1_0001", json.get("jobs").get(0).asText());
        assertEquals(Set.of("exit", "seconds", "counters", "jobs"),
                iterable(json.fieldNames()).stream().collect(Collectors.toSet()));
    }

    private static List<String> iterable(java.util.Iterator<String> it) {
        List<String> l = new java.util.ArrayList<>();
        it.forEachRemaining(l::add);
        return l;
    }
}
