package org.camdoop.torus.trees;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.Port;
import org.camdoop.torus.topology.TorusShape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class DisjointTreesTest {

    /** The shapes the issue lists, each with the origin, the far corner and seeded random roots. */
    static Stream<Arguments> fullShapes() {
        List<Arguments> out = new ArrayList<>();
        Random random = new Random(42);
        for (String s : new String[] {"3x3x3", "4x4x4", "8x8x8", "3x4x5", "5x3x7", "6x6x6", "3x3x9", "7x5x4"}) {
            TorusShape shape = TorusShape.parse(s);
            out.add(Arguments.of(s, 0));
            out.add(Arguments.of(s, shape.size() - 1));
            for (int i = 0; i < 3; i++) {
                out.add(Arguments.of(s, random.nextInt(shape.size())));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} root {1}")
    @MethodSource("fullShapes")
    void sixTreesHoldEveryInvariant(String s, int root) {
        TorusShape shape = TorusShape.parse(s);
        DisjointTrees trees = new DisjointTrees(shape, root);
        assertEquals(6, trees.count());
        assertEquals(List.of(), TreeInvariants.violations(trees, true));
    }

    @ParameterizedTest(name = "{0} root {1}")
    @MethodSource("fullShapes")
    void sixTreesUseSixNMinusSixLinksAndEachPortNamesOneTree(String s, int root) {
        TorusShape shape = TorusShape.parse(s);
        DisjointTrees trees = new DisjointTrees(shape, root);
        int used = 0;
        for (int t = 0; t < 6; t++) {
            for (int v = 0; v < shape.size(); v++) {
                if (trees.parentPort(t, v) != null) {
                    used++;
                }
            }
            assertEquals(Port.values()[t], trees.genericPort(t), "tree " + t + " is named by its generic port");
        }
        assertEquals(6 * (shape.size() - 1), used, "tight packing: 6(N-1) of the 6N directed links");
    }

    /** Every dimension signature: which trees exist when dimensions have size 1 or 2. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"1x1x1", "2x1x1", "1x3x1", "4x1x1", "2x2x1", "1x2x5", "3x3x1", "1x5x4", "2x2x2",
        "2x2x3", "5x2x2", "2x3x3", "3x2x5", "4x6x2", "2x4x1", "7x1x2", "2x2x6"})
    void smallDimensionsGiveFewerTreesThatStillHoldTheInvariants(String s) {
        TorusShape shape = TorusShape.parse(s);
        for (int root = 0; root < shape.size(); root++) {
            DisjointTrees trees = new DisjointTrees(shape, root);
            assertEquals(List.of(), TreeInvariants.violations(trees, true), s + " root " + root);
        }
    }

    @Test
    void treeCountsNameTheLinksThatExist() {
        assertEquals(0, new DisjointTrees(TorusShape.parse("1x1x1"), 0).count());
        assertEquals(1, new DisjointTrees(TorusShape.parse("2x1x1"), 0).count());
        assertEquals(2, new DisjointTrees(TorusShape.parse("4x1x1"), 0).count());
        assertEquals(4, new DisjointTrees(TorusShape.parse("3x3x1"), 0).count());
        assertEquals(3, new DisjointTrees(TorusShape.parse("2x2x2"), 0).count());
        assertEquals(4, new DisjointTrees(TorusShape.parse("2x2x5"), 0).count());
        // One size-2 dimension with rings: one port per server idles.
        assertEquals(2, new DisjointTrees(TorusShape.parse("2x4x1"), 0).count());
        assertEquals(4, new DisjointTrees(TorusShape.parse("2x3x3"), 0).count());
        assertEquals("4 disjoint trees (5 links per server; x has size 2: +x and -x are one link; "
                + "one size-2 dimension with rings: 1 port per server idle)",
                new DisjointTrees(TorusShape.parse("2x3x3"), 0).describe());
    }

    @Test
    void theCheckerCatchesBrokenTrees() {
        TorusShape shape = TorusShape.parse("3x3x3");
        DisjointTrees good = new DisjointTrees(shape, 0);
        // Swap two trees' ports at one vertex only: tree 0 now shares a link with tree 1 elsewhere or loops.
        int victim = shape.index(new Coord(1, 1, 1));
        SpanningTrees broken = new SpanningTrees() {
            @Override
            public TorusShape shape() {
                return shape;
            }

            @Override
            public int root() {
                return 0;
            }

            @Override
            public int count() {
                return 6;
            }

            @Override
            public Port parentPort(int tree, int vertex) {
                return vertex == victim && tree == 0 ? good.parentPort(1, vertex) : good.parentPort(tree, vertex);
            }

            @Override
            public String describe() {
                return "broken";
            }
        };
        List<String> v = TreeInvariants.violations(broken, true);
        assertFalse(v.isEmpty());
        assertTrue(v.get(0).contains("1,1,1"), v.toString());
    }

    @Test
    void sixTreesCostHopsOverTheShortestPathFloorButStayBounded() {
        for (String s : new String[] {"3x3x3", "4x4x4", "8x8x8"}) {
            TorusShape shape = TorusShape.parse(s);
            HostedTrees.Depth six = new HostedTrees(new DisjointTrees(shape, 0), FailureView.none(shape), 0).depth();
            double floor = HostedTrees.shortestPathAverage(shape, 0);
            assertTrue(six.avg() >= floor, s);
            // Class rules walk each axis one way: at most a full ring per axis, plus two-hop detours.
            int bound = 0;
            for (int axis = 0; axis < 3; axis++) {
                bound += shape.dim(axis) - 1 + 2;
            }
            assertTrue(six.max() <= bound, s + " max depth " + six.max() + " > " + bound);
            assertTrue(six.avg() < 2 * floor, s + " avg " + six.avg() + " vs floor " + floor);
        }
    }

    @Test
    void depthFiguresMatchTheDocumentedTable() {
        // docs/topology.md quotes these; if the rule changes, update the document with it.
        assertDepth("3x3x3", 6, 3.73);
        assertDepth("4x4x4", 9, 5.05);
        assertDepth("8x8x8", 21, 10.77);
    }

    private static void assertDepth(String s, int max, double avg) {
        TorusShape shape = TorusShape.parse(s);
        HostedTrees.Depth d = new HostedTrees(new DisjointTrees(shape, 0), FailureView.none(shape), 0).depth();
        assertEquals(max, d.max(), s);
        assertEquals(avg, d.avg(), 0.005, s);
    }
}
