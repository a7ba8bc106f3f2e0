package org.camdoop.shuffle.aggregation;

import org.camdoop.shuffle.records.RawBytes;
import org.camdoop.shuffle.records.RecordLayout;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.io.WritableUtils;
import org.junit.jupiter.api.Test;

class RecordChunkWriterTest {

    @Test
    void vintEncodingIsBitIdenticalToHadoops() throws IOException {
        Random rnd = new Random(1);
        int[] edges = {0, 1, -1, 127, 128, -112, -113, 255, 256, 65535, 65536, Integer.MAX_VALUE, Integer.MIN_VALUE};
        for (int n = 0; n < 2000; n++) {
            int v = n < edges.length ? edges[n] : (n % 2 == 0 ? rnd.nextInt() : rnd.nextInt(70000) - 35000);
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            WritableUtils.writeVInt(new DataOutputStream(bytes), v);
            byte[] mine = new byte[5];
            int end = RecordLayout.writeVInt(mine, 0, v);
            assertArrayEquals(bytes.toByteArray(), Arrays.copyOf(mine, end), "value " + v);
        }
    }

    @Test
    void chunksHoldWholeRecordsWithinTheBound() throws IOException {
        Records.CollectingSink sink = new Records.CollectingSink();
        AggregationCounters counters = new AggregationCounters();
        RecordChunkWriter writer = new RecordChunkWriter(100, sink, counters);
        RawBytes key = new RawBytes();
        RawBytes value = new RawBytes();
        for (int i = 0; i < 50; i++) {
            key.set(("key" + i).getBytes(java.nio.charset.StandardCharsets.UTF_8), 0, ("key" + i).length());
            value.set(new byte[i % 30], 0, i % 30);
            writer.append(key, value);
        }
        writer.flush();
        writer.flush();
        int records = 0;
        for (byte[] chunk : sink.chunks) {
            assertTrue(chunk.length <= 100 && chunk.length > 0);
            ChunkQueueRun run = new ChunkQueueRun("chunk");
            run.offer(chunk, chunk.length);
            run.finish();
            records += Records.drain(run).size();
        }
        assertEquals(50, records);
        assertEquals(50, counters.recordsOut());
        assertEquals(sink.chunks.stream().mapToLong(c -> c.length).sum(), counters.bytesOut());
    }

    @Test
    void chunkRunDistinguishesNoDataYetFromEnd() throws IOException {
        ChunkQueueRun run = new ChunkQueueRun("child");
        assertEquals(Advance.NO_DATA_YET, run.advance());
        byte[] one = Records.layout(List.of(new Records.Raw(new byte[] {1}, new byte[] {2})));
        run.offer(ByteBuffer.allocateDirect(one.length).put(one).flip());
        assertEquals(Advance.RECORD, run.advance());
        assertArrayEquals(new byte[] {2}, run.value().copy());
        assertEquals(Advance.NO_DATA_YET, run.advance());
        run.finish();
        assertEquals(Advance.END, run.advance());
        assertEquals(Advance.END, run.advance());
        assertThrows(IllegalStateException.class, () -> run.offer(one, one.length));
    }

    @Test
    void corruptChunkFailsWithOffsetNotGarbage() {
        byte[] good = Records.layout(List.of(new Records.Raw(new byte[] {1, 2}, new byte[] {3})));
        byte[] bad = Arrays.copyOf(good, good.length);
        bad[0] = 100; // key length beyond the chunk
        ChunkQueueRun run = new ChunkQueueRun("child on tree 2");
        run.offer(bad, bad.length);
        IOException e = assertThrows(IOException.class, run::advance);
        assertTrue(e.getMessage().startsWith("child on tree 2: corrupt record at offset 0"), e.getMessage());
    }
}
