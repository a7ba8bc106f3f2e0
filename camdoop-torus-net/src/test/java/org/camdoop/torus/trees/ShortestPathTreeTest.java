package org.camdoop.torus.trees;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.TorusShape;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ShortestPathTreeTest {

    @ParameterizedTest
    @ValueSource(strings = {"3x3x3", "4x4x4", "5x3x7", "2x2x2", "4x1x1", "3x3x1", "1x1x1", "6x6x6"})
    void everyVertexIsAtItsHopDistanceFromTheRoot(String s) {
        TorusShape shape = TorusShape.parse(s);
        for (int root : new int[] {0, shape.size() / 2, shape.size() - 1}) {
            ShortestPathTree tree = new ShortestPathTree(shape, root);
            assertEquals(List.of(), TreeInvariants.violations(tree, false));
            HostedTrees hosted = new HostedTrees(tree, FailureView.none(shape), 0);
            for (int v = 0; v < shape.size() && tree.count() == 1; v++) {
                int depth = 0;
                for (int u = v; u != root; u = tree.parent(0, u)) {
                    depth++;
                }
                assertEquals(shape.hopDistance(v, root), depth, s + " vertex " + shape.coord(v));
            }
            assertEquals(HostedTrees.shortestPathAverage(shape, root), hosted.depth().avg(), 1e-9);
        }
    }
}
