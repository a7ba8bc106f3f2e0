package org.camdoop.shuffle.records;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class RecordCursorTest {

    private final RecordCursor cursor = new RecordCursor("chunk");
    private final RawBytes key = new RawBytes();
    private final RawBytes value = new RawBytes();

    @Test
    void readsRecordsUpToTheEofMarker() throws IOException {
        byte[] chunk = {1, 2, 'k', 'v', 'w', -1, -1, 9, 9};
        cursor.reset(chunk, 0, chunk.length);
        assertTrue(cursor.next(key, value));
        assertArrayEquals(new byte[] {'k'}, key.copy());
        assertArrayEquals(new byte[] {'v', 'w'}, value.copy());
        assertFalse(cursor.next(key, value), "the EOF marker ends the range");
    }

    /** Found by RecordCursorFuzzTest: a range ending right after a key length read the byte after the range. */
    @Test
    void aHeaderCutAfterTheKeyLengthIsRefused() {
        byte[] chunk = {5};
        cursor.reset(chunk, 0, 1);
        IOException e = assertThrows(IOException.class, () -> cursor.next(key, value));
        assertEquals("chunk: truncated record header at offset 0", e.getMessage());
    }

    @Test
    void aLengthBeyondTheRangeIsRefusedWithItsOffset() {
        byte[] chunk = {0, 0, 3, 4, 'a'};
        cursor.reset(chunk, 0, chunk.length);
        IOException e = assertThrows(IOException.class, () -> {
            while (cursor.next(key, value)) {
                // the first record is empty and valid
            }
        });
        assertEquals("chunk: corrupt record at offset 2: key length 3, value length 4, 1 bytes left in chunk",
                e.getMessage());
    }
}
