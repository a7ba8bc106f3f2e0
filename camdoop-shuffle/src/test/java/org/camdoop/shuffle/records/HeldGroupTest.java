package org.camdoop.shuffle.records;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** A held group grows in place while held, and an array handed on is never written again. */
class HeldGroupTest {

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void holdsCopiesAppendsAndLeavesWhatWasHandedOnAlone() {
        HeldGroup g = new HeldGroup();
        assertTrue(g.isEmpty());
        assertEquals(0, g.length());
        assertEquals(0, g.bytes().length);

        byte[] chunk = bytes("xxABCyy");
        g.hold(chunk, 2, 5, bytes("k1"));
        chunk[2] = 'z'; // the caller's chunk is reused: the group is a copy
        assertFalse(g.isEmpty());
        assertEquals("ABC", new String(g.bytes(), 0, g.length(), StandardCharsets.US_ASCII));
        g.append(bytes("DEFGHIJKLMNOP"), 0, 13); // grows past the first array
        assertEquals("ABCDEFGHIJKLMNOP", new String(g.bytes(), 0, g.length(), StandardCharsets.US_ASCII));

        byte[] handedOn = g.bytes();
        byte[] asHandedOn = Arrays.copyOf(handedOn, g.length());
        g.hold(bytes("QRS"), 0, 3, bytes("k2"));
        g.append(bytes("TU"), 0, 2);
        assertArrayEquals(asHandedOn, Arrays.copyOf(handedOn, asHandedOn.length), "a new group gets a new array");
        assertArrayEquals(bytes("k2"), g.key());

        g.clear();
        assertTrue(g.isEmpty());
        assertEquals(0, g.length());
        assertEquals(null, g.key());
    }
}
