package org.camdoop.torus.trees;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.camdoop.torus.routing.UnreachableException;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.Port;
import org.camdoop.torus.topology.TorusShape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HostedTreesTest {

    @ParameterizedTest(name = "{0} seed {1}")
    @CsvSource({"3x3x3,1", "3x3x3,2", "3x3x3,3", "4x4x4,4", "4x4x4,5", "5x3x7,6", "6x6x6,7", "3x4x5,8", "2x2x2,9",
        "3x3x1,10", "8x8x8,11"})
    void randomFailuresKeepEveryTreeConnectedOverLiveLinks(String s, long seed) {
        TorusShape shape = TorusShape.parse(s);
        Random random = new Random(seed);
        for (int trial = 0; trial < 5; trial++) {
            FailureView view = FailureView.none(shape);
            int root = random.nextInt(shape.size());
            int failures = 1 + random.nextInt(Math.max(1, shape.size() / 8));
            for (int i = 0; i < failures; i++) {
                int f = random.nextInt(shape.size());
                if (f != root) {
                    view = view.withFailed(shape.coord(f));
                }
            }
            for (int i = 0; i < 2 && !shape.links().isEmpty(); i++) {
                int a = random.nextInt(shape.size());
                Port p = shape.links().get(random.nextInt(shape.links().size()));
                view = view.withCutLink(shape.coord(a), shape.coord(shape.neighbour(a, p)));
            }
            for (TreeChoice choice : TreeChoice.values()) {
                check(choice.build(shape, root), view, seed * 31 + trial);
            }
        }
    }

    private static void check(SpanningTrees trees, FailureView view, long salt) {
        HostedTrees hosted = new HostedTrees(trees, view, salt);
        TorusShape shape = trees.shape();
        for (int v = 0; v < shape.size(); v++) {
            for (int t = 0; t < trees.count(); t++) {
                int host = hosted.host(t, v);
                assertTrue(view.isLive(host), "vertex " + shape.coord(v) + " of tree " + t + " on a dead server");
                if (view.isLive(v)) {
                    assertEquals(v, host, "a live server hosts its own vertex");
                }
                int parent = trees.parent(t, v);
                if (!view.isLive(v)) {
                    // Adopted by its nearest live ancestor's host; a failed root goes where identifier routing says.
                    assertEquals(parent < 0 ? hosted.rootHost() : hosted.host(t, parent), host, "adopted by the parent");
                }
                int[] route;
                try {
                    route = hosted.route(t, v);
                } catch (UnreachableException partitioned) {
                    // Only legitimate when the live graph really is split between these hosts.
                    assertTrue(partitioned.getMessage().contains("partition"), partitioned.getMessage());
                    continue;
                }
                assertEquals(host, route[0]);
                assertEquals(parent < 0 ? host : hosted.host(t, parent), route[route.length - 1]);
                for (int i = 1; i < route.length; i++) {
                    assertEquals(1, shape.hopDistance(route[i - 1], route[i]), "route steps are single hops");
                    assertTrue(view.canCross(route[i - 1], route[i]), "route crosses a failed server or cut link");
                }
                if (parent >= 0) {
                    assertEquals(hosted.routes().hops(host, hosted.host(t, parent)), route.length - 1,
                            "shortest live path");
                }
            }
        }
    }

    @Test
    void withoutFailuresEveryEdgeIsOneHopAndDepthIsLogical() {
        TorusShape shape = TorusShape.parse("4x4x4");
        HostedTrees hosted = new HostedTrees(new DisjointTrees(shape, 5), FailureView.none(shape), 99);
        for (int t = 0; t < 6; t++) {
            for (int v = 0; v < shape.size(); v++) {
                assertEquals(v == 5 ? 1 : 2, hosted.route(t, v).length);
            }
        }
    }

    @Test
    void aFailedServersSixVerticesMoveToItsSixParentsEachEdgeToTheParentCostingNoHop() {
        TorusShape shape = TorusShape.parse("3x3x3");
        int victim = shape.index(new Coord(1, 1, 1));
        FailureView view = FailureView.none(shape).withFailed(new Coord(1, 1, 1));
        DisjointTrees trees = new DisjointTrees(shape, 0);
        HostedTrees hosted = new HostedTrees(trees, view, 7);
        java.util.Set<Integer> hosts = new java.util.HashSet<>();
        for (int t = 0; t < 6; t++) {
            assertEquals(trees.parent(t, victim), hosted.host(t, victim));
            assertEquals(1, hosted.route(t, victim).length, "tree " + t + ": the edge to the adopting parent");
            hosts.add(hosted.host(t, victim));
        }
        // The six parents of (1,1,1) are its six neighbours, one per tree: its load spreads over all six.
        assertEquals(6, hosts.size());
    }

    @Test
    void aChainOfFailedVerticesIsAdoptedByTheirNearestLiveAncestor() {
        TorusShape shape = TorusShape.parse("4x4x4");
        DisjointTrees trees = new DisjointTrees(shape, 0);
        int child = shape.index(new Coord(2, 1, 1));
        int parent = trees.parent(0, child);
        int grandparent = trees.parent(0, parent);
        FailureView view = FailureView.none(shape).withFailed(shape.coord(child)).withFailed(shape.coord(parent));
        HostedTrees hosted = new HostedTrees(trees, view, 3);
        assertEquals(grandparent, hosted.host(0, parent));
        assertEquals(grandparent, hosted.host(0, child));
    }

    @Test
    void differentJobsSpreadAFailedRootCoordinate() {
        TorusShape shape = TorusShape.parse("3x3x3");
        FailureView view = FailureView.none(shape).withFailed(new Coord(1, 1, 1));
        int victim = shape.index(new Coord(1, 1, 1));
        java.util.Set<Integer> hosts = new java.util.HashSet<>();
        for (long salt = 0; salt < 200; salt++) {
            hosts.add(new HostedTrees(new DisjointTrees(shape, victim), view, salt).rootHost());
        }
        assertTrue(hosts.size() >= 5, "200 jobs used only " + hosts.size() + " of 6 neighbours");
    }

    @Test
    void equalViewsBuiltInAnyOrderPlaceVerticesIdentically() {
        TorusShape shape = TorusShape.parse("4x4x4");
        Coord a = new Coord(1, 2, 3);
        Coord b = new Coord(1, 2, 2);
        FailureView one = FailureView.none(shape).withFailed(a).withFailed(b);
        FailureView two = FailureView.none(shape).withFailed(b).withFailed(a);
        assertEquals(one, two);
        HostedTrees h1 = new HostedTrees(new DisjointTrees(shape, 0), one, 5);
        HostedTrees h2 = new HostedTrees(new DisjointTrees(shape, 0), two, 5);
        assertEquals(h1.rootHost(), h2.rootHost());
        for (int v = 0; v < shape.size(); v++) {
            for (int t = 0; t < 6; t++) {
                assertEquals(h1.host(t, v), h2.host(t, v));
                assertArrayEquals(h1.route(t, v), h2.route(t, v));
            }
        }
    }
}
