package org.camdoop.torus.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TorusShapeTest {

    @Test
    void indicesAndCoordinatesRoundTrip() {
        TorusShape shape = TorusShape.parse("5x3x7");
        assertEquals(105, shape.size());
        for (int i = 0; i < shape.size(); i++) {
            assertEquals(i, shape.index(shape.coord(i)));
        }
    }

    @Test
    void neighboursWrapAroundAndPortsLeadBack() {
        TorusShape shape = TorusShape.parse("4x3x5");
        assertEquals(new Coord(3, 0, 0), shape.coord(shape.neighbour(0, Port.MINUS_X)));
        assertEquals(new Coord(0, 2, 0), shape.coord(shape.neighbour(0, Port.MINUS_Y)));
        assertEquals(new Coord(0, 0, 0), shape.coord(shape.neighbour(shape.index(new Coord(0, 0, 4)), Port.PLUS_Z)));
        for (int i = 0; i < shape.size(); i++) {
            for (Port p : Port.values()) {
                assertEquals(i, shape.neighbour(shape.neighbour(i, p), p.opposite()));
                assertEquals(1, shape.hopDistance(i, shape.neighbour(i, p)));
            }
        }
        assertEquals(2 + 1 + 2, shape.hopDistance(0, shape.index(new Coord(2, 1, 3))));
    }

    @Test
    void smallDimensionsHaveFewerLinks() {
        assertEquals(List.of(Port.values()), TorusShape.parse("3x3x3").links());
        assertEquals(List.of(Port.PLUS_X, Port.PLUS_Y, Port.PLUS_Z), TorusShape.parse("2x2x2").links());
        assertEquals(List.of(Port.PLUS_X, Port.MINUS_X), TorusShape.parse("4x1x1").links());
        assertEquals(List.of(), TorusShape.parse("1x1x1").links());
        assertEquals(0, TorusShape.parse("1x1x1").neighbour(0, Port.PLUS_Z));
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "0x3x3;torus dimensions must be >= 1, got 0x3x3",
        "3x3;malformed shape '3x3': expected AxBxC, e.g. 3x3x3",
        "3xax3;malformed shape '3xax3': 'a' is not an integer"})
    void badShapesSayWhy(String text, String message) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> TorusShape.parse(text)).getMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "1,2;malformed coordinate '1,2': expected x,y,z",
        "1,b,2;malformed coordinate '1,b,2': 'b' is not an integer",
        "1,-1,2;malformed coordinate '1,-1,2': negative component"})
    void badCoordinatesSayWhy(String text, String message) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> Coord.parse(text)).getMessage());
    }

    @ParameterizedTest
    @CsvSource({"1,1x1x1", "2,1x1x2", "8,2x2x2", "12,2x2x3", "27,3x3x3", "30,2x4x4", "36,3x3x4", "64,4x4x4", "100,4x5x5",
        "512,8x8x8", "4096,16x16x16"})
    void serverCountsGetTheMostCubeLikeShape(int servers, String expected) {
        assertEquals(expected, TorusShape.forServers(servers).toString());
    }

    @Test
    void everyServerCountGetsTheSmallestDiameterThenTheFewestVacancies() {
        for (int n = 1; n <= 300; n++) {
            TorusShape s = TorusShape.forServers(n);
            assertTrue(s.size() >= n, n + " -> " + s);
            int c = s.dim(2);
            for (int a = 1; a <= c; a++) {
                for (int b = a; b <= c; b++) {
                    if (b < c) {
                        assertTrue((long) a * b * (c - 1) < n, n + ": " + a + "x" + b + "x" + (c - 1) + " beats " + s);
                    }
                    long volume = (long) a * b * c;
                    assertTrue(volume < n || volume >= s.size(), n + ": " + a + "x" + b + "x" + c + " beats " + s);
                }
            }
        }
    }
}
