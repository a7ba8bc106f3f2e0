package org.camdoop.bench.micro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.camdoop.shuffle.service.plan.VertexPlan;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TreeComputationBenchmarkTest {

    private static TreeComputationBenchmark prepared(String shape) {
        TreeComputationBenchmark b = new TreeComputationBenchmark();
        b.shape = shape;
        b.setUp();
        return b;
    }

    @ParameterizedTest
    @ValueSource(strings = {"8x8x8", "16x16x16"})
    void walkFindsEveryNonRootVertexAsAChildInEachOfSixTrees(String shape) {
        TreeComputationBenchmark b = prepared(shape);
        // Each non-root vertex has exactly one parent per tree, so the children lists hold it exactly once per tree.
        assertEquals(6L * (b.torus().size() - 1), b.buildAndWalkTrees(TestBlackhole.create()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"8x8x8", "16x16x16"})
    void planOfTheServerNextToTheRootHasOneVertexPerTree(String shape) {
        TreeComputationBenchmark b = prepared(shape);
        List<VertexPlan> plan = b.planOneServer();
        assertEquals(6, plan.size());
        for (int t = 0; t < 6; t++) {
            VertexPlan v = plan.get(t);
            assertEquals(t, v.tree());
            assertEquals(b.root() + 1, v.vertex());
            assertTrue(v.output().isPresent() && v.local().isPresent(), "streams to its parent and reads its stripe");
        }
    }
}
