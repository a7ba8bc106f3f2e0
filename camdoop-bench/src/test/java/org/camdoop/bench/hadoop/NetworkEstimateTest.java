package org.camdoop.bench.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.camdoop.bench.hadoop.NetworkEstimate.MapSide;
import org.camdoop.bench.hadoop.NetworkEstimate.ReduceSide;
import org.junit.jupiter.api.Test;

class NetworkEstimateTest {

    @Test
    void oneMapPerNodeSendsTwoThirdsOfEveryReducesBytesAcrossNodes() {
        List<MapSide> maps = List.of(new MapSide("a", 300), new MapSide("b", 300), new MapSide("c", 300));
        List<ReduceSide> reduces =
                List.of(new ReduceSide("a", 300), new ReduceSide("b", 300), new ReduceSide("c", 300));
        assertEquals(600, NetworkEstimate.remoteShuffleBytes(maps, reduces));
    }

    @Test
    void aReduceOnTheOnlyMapsNodeFetchesNothingAcrossNodes() {
        List<MapSide> maps = List.of(new MapSide("a", 100), new MapSide("a", 50));
        assertEquals(0, NetworkEstimate.remoteShuffleBytes(maps, List.of(new ReduceSide("a", 150))));
        assertEquals(150, NetworkEstimate.remoteShuffleBytes(maps, List.of(new ReduceSide("b", 150))));
    }

    @Test
    void eachReduceIsWeightedByTheShareOfMapOutputOnOtherNodes() {
        // 3/4 of the map output is off node a, 1/4 off node b.
        List<MapSide> maps = List.of(new MapSide("a", 100), new MapSide("b", 300));
        List<ReduceSide> reduces = List.of(new ReduceSide("a", 1000), new ReduceSide("b", 10));
        // a: 1000 x 300/400 = 750; b: 10 x 100/400 = 2.5; 752.5 rounds to 753.
        assertEquals(753, NetworkEstimate.remoteShuffleBytes(maps, reduces));
    }

    @Test
    void noMapOutputMeansNoNetworkBytes() {
        assertEquals(0, NetworkEstimate.remoteShuffleBytes(List.of(new MapSide("a", 0)),
                List.of(new ReduceSide("b", 0))));
        assertEquals(0, NetworkEstimate.remoteShuffleBytes(List.of(), List.of()));
    }
}
