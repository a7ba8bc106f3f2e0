package org.camdoop.shuffle.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.camdoop.torus.topology.Coord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Several NodeManagers on one host each claim their own coordinate. */
class CoordinateClaimTest {
    @TempDir
    Path dir;

    @Test
    void eachDaemonClaimsTheNextFreeCoordinateAndReleasesIt() throws Exception {
        List<Coord> host = List.of(new Coord(0, 0, 0), new Coord(1, 0, 0));
        CoordinateClaim first = CoordinateClaim.claimAmong(host, dir).orElseThrow();
        CoordinateClaim second = CoordinateClaim.claimAmong(host, dir).orElseThrow();
        assertEquals(new Coord(0, 0, 0), first.coord());
        assertEquals(new Coord(1, 0, 0), second.coord());
        assertTrue(Files.exists(dir.resolve("camdoop-coord-1-0-0.lock")));
        assertTrue(CoordinateClaim.claimAmong(host, dir).isEmpty());
        first.release();
        assertEquals(new Coord(0, 0, 0), CoordinateClaim.claimAmong(host, dir).orElseThrow().coord());
    }
}
