package org.camdoop.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class KeyStringsTest {
    @Test
    void distinctSerialsGiveDistinctKeysOfFourToTwentyEightCharacters() {
        KeyStrings keys = new KeyStrings(7);
        Set<String> seen = new HashSet<>();
        int[] lengths = new int[KeyStrings.MAX_LENGTH + 1];
        for (int serial = 0; serial < 300_000; serial++) {
            String key = keys.key(serial);
            assertTrue(seen.add(key), "serial " + serial + " repeats " + key);
            assertEquals(keys.length(serial), key.length());
            lengths[key.length()]++;
        }
        // 300,000 keys over 25 lengths: each length about 12,000 times if lengths are uniform.
        for (int length = KeyStrings.MIN_LENGTH; length <= KeyStrings.MAX_LENGTH; length++) {
            assertEquals(12_000, lengths[length], 1_000, "keys of length " + length);
        }
        assertTrue(seen.stream().allMatch(k -> k.matches("[0-9A-Za-z]{4,28}")));
    }

    @Test
    void aKeyDependsOnSeedAndSerialOnly() {
        assertEquals(new KeyStrings(1).key(12_345), new KeyStrings(1).key(12_345));
        assertNotEquals(new KeyStrings(1).key(12_345), new KeyStrings(2).key(12_345));
        assertThrows(IllegalArgumentException.class, () -> new KeyStrings(1).key(KeyStrings.CAPACITY));
        assertThrows(IllegalArgumentException.class, () -> new KeyStrings(1).key(-1));
    }

    @Test
    void recordBytesIsTheIFileLayoutOfTextAndIntWritable() throws Exception {
        org.apache.hadoop.io.DataOutputBuffer out = new org.apache.hadoop.io.DataOutputBuffer();
        org.apache.hadoop.io.Text key = new org.apache.hadoop.io.Text("abcdefghijklmnopqrstuvwxyz12");
        org.apache.hadoop.io.DataOutputBuffer k = new org.apache.hadoop.io.DataOutputBuffer();
        key.write(k);
        org.apache.hadoop.io.WritableUtils.writeVInt(out, k.getLength());
        org.apache.hadoop.io.WritableUtils.writeVInt(out, 4);
        out.write(k.getData(), 0, k.getLength());
        new org.apache.hadoop.io.IntWritable(5).write(out);
        assertEquals(out.getLength(), KeyStrings.recordBytes(28));
    }
}
