package org.camdoop.torus.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.TorusShape;
import org.junit.jupiter.api.Test;

class KeySpaceTest {

    private final TorusShape shape = TorusShape.parse("3x3x3");
    private final Coord centre = new Coord(1, 1, 1);

    @Test
    void aLiveCoordinateOwnsItsIdentifiers() {
        KeySpace keys = new KeySpace(FailureView.none(shape));
        for (int v = 0; v < shape.size(); v++) {
            assertEquals(v, keys.owner(Identifier.of(shape.coord(v), 12345L)));
        }
    }

    @Test
    void anyIdentifierNamesACoordinateOfAnyShape() {
        byte[] raw = new byte[Identifier.BYTES];
        raw[1] = 7; // x = 7
        raw[3] = 4; // y = 4
        raw[5] = (byte) 200; // z = 200
        assertEquals(new Coord(1, 1, 2), Identifier.fromBytes(raw).coordinate(shape));
        assertEquals(new Coord(7, 4, 200), Identifier.fromBytes(raw).coordinate(TorusShape.parse("8x5x256")));
    }

    @Test
    void aFailedCoordinateMovesToALiveNeighbourChosenByTheLowBits() {
        KeySpace keys = new KeySpace(FailureView.none(shape).withFailed(centre));
        Set<Integer> owners = new HashSet<>();
        for (long salt = 0; salt < 300; salt++) {
            int owner = keys.owner(Identifier.of(centre, salt));
            assertEquals(1, shape.hopDistance(owner, shape.index(centre)));
            owners.add(owner);
        }
        assertEquals(6, owners.size(), "the low bits spread the failed server's identifiers over all six neighbours");
    }

    @Test
    void cascadingFailuresFallBackToTheNextShellDeterministically() {
        FailureView view = FailureView.none(shape).withFailed(centre);
        for (int v = 0; v < shape.size(); v++) {
            if (shape.hopDistance(v, shape.index(centre)) == 1) {
                view = view.withFailed(shape.coord(v));
            }
        }
        KeySpace keys = new KeySpace(view);
        for (long salt = 0; salt < 50; salt++) {
            Identifier id = Identifier.of(centre, salt);
            int owner = keys.owner(id);
            assertEquals(2, shape.hopDistance(owner, shape.index(centre)));
            assertEquals(owner, new KeySpace(view).owner(id), "same view, same answer");
        }
    }

    @Test
    void aFailureMovesOnlyTheFailedServersIdentifiers() {
        KeySpace before = new KeySpace(FailureView.none(shape).withFailed(new Coord(0, 0, 0)));
        KeySpace after = new KeySpace(before.view().withFailed(centre));
        for (int v = 0; v < shape.size(); v++) {
            for (long salt = 0; salt < 5; salt++) {
                Identifier id = Identifier.of(shape.coord(v), salt);
                if (before.owner(id) != shape.index(centre)) {
                    assertEquals(before.owner(id), after.owner(id), "identifier of " + shape.coord(v) + " moved");
                }
            }
        }
    }

    @Test
    void noLiveServerIsAClearError() {
        FailureView view = FailureView.none(TorusShape.parse("2x1x1")).withFailed(new Coord(0, 0, 0))
                .withFailed(new Coord(1, 0, 0));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new KeySpace(view).owner(Identifier.of(new Coord(0, 0, 0), 1)));
        assertEquals("no live server on 2x1x1: every coordinate failed or vacant", e.getMessage());
    }

    @Test
    void vacantCoordinatesAreRemappedLikeFailedOnes() {
        TorusShape s = TorusShape.forServers(20); // 3x3x3 with 7 vacant
        KeySpace keys = new KeySpace(FailureView.occupied(s, 20));
        for (int v = 20; v < s.size(); v++) {
            int owner = keys.owner(Identifier.of(s.coord(v), 3));
            assertTrue(owner < 20, "vacant " + s.coord(v) + " mapped to vacant " + s.coord(owner));
        }
    }
}
