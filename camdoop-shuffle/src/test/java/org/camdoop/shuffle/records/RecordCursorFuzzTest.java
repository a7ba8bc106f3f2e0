package org.camdoop.shuffle.records;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;

/**
 * Chunks reach a vertex from its children over the torus and from map-output files: whatever their bytes, the cursor
 * yields records that lie inside the range it was given, or fails with an {@link IOException} naming the offset. It
 * never reads outside the range (the range is placed inside a larger array with guard bytes on both sides, so a read
 * past either end would parse the guards instead of failing).
 */
class RecordCursorFuzzTest {

    @FuzzTest(maxDuration = "3s")
    void recordsStayInsideTheirChunkOrTheChunkIsRefused(FuzzedDataProvider data) {
        int before = data.consumeInt(0, 8);
        int after = data.consumeInt(0, 8);
        byte[] chunk = data.consumeRemainingAsBytes();
        byte[] array = new byte[before + chunk.length + after];
        java.util.Arrays.fill(array, (byte) 0x7f);
        System.arraycopy(chunk, 0, array, before, chunk.length);
        RecordCursor cursor = new RecordCursor("fuzzed chunk");
        cursor.reset(array, before, chunk.length);
        RawBytes key = new RawBytes();
        RawBytes value = new RawBytes();
        int end = before + chunk.length;
        try {
            int previousEnd = before;
            while (cursor.next(key, value)) {
                assertTrue(key.offset() >= previousEnd && key.offset() + key.length() == value.offset()
                        && value.offset() + value.length() <= end, "a record inside its chunk, after the previous one");
                previousEnd = value.offset() + value.length();
            }
        } catch (IOException refused) {
            assertTrue(refused.getMessage().startsWith("fuzzed chunk: "), refused.getMessage());
        }
    }
}
