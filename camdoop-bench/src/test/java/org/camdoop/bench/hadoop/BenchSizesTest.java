package org.camdoop.bench.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class BenchSizesTest {

    @Test
    void optionsGivenOverrideTheRunsDefaults() {
        assertEquals(BenchSizes.QUICK, BenchSizes.of(true, null, null, null, null));
        assertEquals(BenchSizes.DEFAULT, BenchSizes.of(false, null, null, null, null));
        assertEquals(new BenchSizes(8, BenchSizes.QUICK.sortMb(), 2, BenchSizes.QUICK.reduces()),
                BenchSizes.of(true, 8, null, 2, null));
    }

    @Test
    void eachGeneratorMapWritesItsShare() {
        BenchSizes s = new BenchSizes(3, 1, 3, 1);
        assertEquals(1024 * 1024, s.bytesPerMap(3));
    }

    @Test
    void outOfRangeNamesTheOption() {
        assertEquals("--reduces must be from 1 to 48, got 0",
                assertThrows(IllegalArgumentException.class, () -> new BenchSizes(1, 1, 1, 0)).getMessage());
        assertEquals("--wordcount-mb must be from 1 to 4096, got 5000",
                assertThrows(IllegalArgumentException.class, () -> new BenchSizes(5000, 1, 1, 1)).getMessage());
    }
}
