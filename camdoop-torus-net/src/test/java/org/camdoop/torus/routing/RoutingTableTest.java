package org.camdoop.torus.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.Port;
import org.camdoop.torus.topology.TorusShape;
import org.junit.jupiter.api.Test;

class RoutingTableTest {

    @Test
    void withoutFailuresPathsAreAsShortAsTheTorusDistance() {
        TorusShape shape = TorusShape.parse("5x3x7");
        RoutingTable routes = new RoutingTable(FailureView.none(shape));
        for (int a = 0; a < shape.size(); a += 3) {
            for (int b = 0; b < shape.size(); b += 2) {
                assertEquals(shape.hopDistance(a, b), routes.hops(a, b));
                assertEquals(shape.hopDistance(a, b) + 1, routes.path(a, b).length);
            }
        }
        assertNull(routes.nextHop(4, 4));
    }

    @Test
    void pathsGoAroundAFailedServerAndACutLink() {
        TorusShape shape = TorusShape.parse("5x5x5");
        Coord from = new Coord(0, 0, 0);
        Coord to = new Coord(2, 0, 0);
        assertEquals(Port.PLUS_X, new RoutingTable(FailureView.none(shape)).nextHop(0, shape.index(to)));
        FailureView view = FailureView.none(shape).withFailed(new Coord(1, 0, 0));
        RoutingTable routes = new RoutingTable(view);
        int[] path = routes.path(shape.index(from), shape.index(to));
        assertEquals(4, path.length, "a two-hop trip becomes three hops the other way round the ring");
        assertEquals(shape.index(new Coord(4, 0, 0)), path[1]);
        for (int i = 1; i < path.length; i++) {
            assertTrue(view.canCross(path[i - 1], path[i]));
        }
        FailureView cut = FailureView.none(shape).withCutLink(new Coord(0, 0, 0), new Coord(1, 0, 0));
        RoutingTable aroundCut = new RoutingTable(cut);
        assertEquals(3, aroundCut.hops(shape.index(from), shape.index(new Coord(1, 0, 0))));
        assertEquals(Port.PLUS_Y, aroundCut.nextHop(shape.index(from), shape.index(new Coord(1, 0, 0))));
    }

    @Test
    void aPartitionIsAClearError() {
        TorusShape shape = TorusShape.parse("3x3x3");
        Coord island = new Coord(1, 1, 1);
        FailureView view = FailureView.none(shape);
        for (Port p : Port.values()) {
            view = view.withCutLink(island, shape.coord(shape.neighbour(shape.index(island), p)));
        }
        RoutingTable routes = new RoutingTable(view);
        UnreachableException e = assertThrows(UnreachableException.class,
                () -> routes.nextHop(shape.index(island), 0));
        assertEquals("no live path from 1,1,1 to 0,0,0 on 3x3x3: the failures partition the torus", e.getMessage());
        FailureView dead = FailureView.none(shape).withFailed(new Coord(0, 0, 0));
        assertEquals("no live path from 1,1,1 to 0,0,0 on 3x3x3: destination is not live",
                assertThrows(UnreachableException.class,
                        () -> new RoutingTable(dead).path(shape.index(island), 0)).getMessage());
    }

    @Test
    void aSizeTwoDimensionIsOneLink() {
        TorusShape shape = TorusShape.parse("2x1x1");
        RoutingTable routes = new RoutingTable(FailureView.none(shape));
        assertEquals(Port.PLUS_X, routes.nextHop(1, 0));
        assertEquals(Port.PLUS_X, routes.nextHop(0, 1));
    }
}
