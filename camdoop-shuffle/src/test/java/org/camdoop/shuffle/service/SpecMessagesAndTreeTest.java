package org.camdoop.shuffle.service;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.camdoop.shuffle.protocol.JarDigest;
import org.camdoop.shuffle.service.net.ShuffleMessages;
import org.camdoop.shuffle.service.net.SpecMessages;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.TorusShape;
import org.junit.jupiter.api.Test;

/** The SPEC / JAR_PART codec and the broadcast tree. */
class SpecMessagesAndTreeTest {

    private static final String JOB = "job_1700000000000_0001";
    private static final byte[] JAR = "jar bytes".getBytes(StandardCharsets.UTF_8);

    @Test
    void specAndJarPartRoundTrip() {
        Coord origin = new Coord(1, 2, 0);
        SpecMessages.Spec s = assertInstanceOf(SpecMessages.Spec.class,
                ShuffleMessages.decode(SpecMessages.spec(JOB, origin, new byte[] {1, 2, 3})));
        assertEquals(JOB, s.jobId());
        assertEquals(origin, s.origin());
        assertArrayEquals(new byte[] {1, 2, 3}, s.encodedSpec());
        JarDigest d = JarDigest.of(JAR);
        SpecMessages.JarPart p = assertInstanceOf(SpecMessages.JarPart.class,
                ShuffleMessages.decode(SpecMessages.jarPart(JOB, origin, d, JAR.length, 4, JAR, 4, 3)));
        assertEquals(d, p.digest());
        assertEquals(JAR.length, p.total());
        assertEquals(4, p.offset());
        assertArrayEquals(Arrays.copyOfRange(JAR, 4, 7), p.bytes());
    }

    @Test
    void badPartsAreRefusedWithTheirReason() {
        Coord origin = new Coord(0, 0, 0);
        JarDigest d = JarDigest.of(JAR);
        byte[] beyond = SpecMessages.jarPart(JOB, origin, d, 5, 4, JAR, 0, 3);
        assertEquals("jar part [4, 4 + 3) outside a jar of 5 bytes",
                assertThrows(IllegalArgumentException.class, () -> ShuffleMessages.decode(beyond)).getMessage());
        byte[] good = SpecMessages.jarPart(JOB, origin, d, JAR.length, 0, JAR, 0, JAR.length);
        assertEquals("jar part claims " + JAR.length + " bytes, " + (JAR.length - 1) + " follow",
                assertThrows(IllegalArgumentException.class,
                        () -> ShuffleMessages.decode(Arrays.copyOf(good, good.length - 1))).getMessage());
    }

    @Test
    void aPartFillsItsFrameExactly() {
        int limit = 8192 - 36;
        int part = SpecMessages.partBytes(limit, JOB);
        byte[] jar = new byte[part];
        assertEquals(limit, SpecMessages.jarPart(JOB, new Coord(2, 2, 2), JarDigest.of(jar), part, 0, jar, 0, part)
                .length);
        assertEquals(SpecMessages.MAX_PART_BYTES, SpecMessages.partBytes(1 << 20, JOB));
    }

    @Test
    void theTreeReachesEveryLiveServerOnceOverWorkingLinks() {
        TorusShape shape = TorusShape.parse("3x3x3");
        FailureView view = FailureView.none(shape).withFailed(new Coord(1, 1, 0))
                .withCutLink(new Coord(0, 0, 0), new Coord(1, 0, 0));
        int origin = shape.index(new Coord(0, 0, 0));
        BroadcastTree tree = new BroadcastTree(view, origin);
        Set<Integer> reached = new HashSet<>();
        for (int s = 0; s < shape.size(); s++) {
            for (int child : tree.children(s)) {
                assertTrue(reached.add(child), "reached twice: " + shape.coord(child));
                assertTrue(view.canCross(s, child), shape.coord(s) + " -> " + shape.coord(child));
            }
        }
        assertEquals(view.liveCount() - 1, reached.size());
        assertTrue(!reached.contains(origin) && !reached.contains(shape.index(new Coord(1, 1, 0))));
    }
}
