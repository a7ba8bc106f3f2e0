package org.camdoop.shuffle.aggregation;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.Writable;

/** Raw records for tests: serialized Writables, sorted runs as IFile-layout bytes, and parsing of engine output. */
final class Records {
    private Records() {}

    /** One record as raw bytes. */
    record Raw(byte[] key, byte[] value) {}

    static byte[] bytes(Writable w) {
        try {
            DataOutputBuffer out = new DataOutputBuffer();
            w.write(out);
            return Arrays.copyOf(out.getData(), out.getLength());
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    static Raw raw(Writable key, Writable value) {
        return new Raw(bytes(key), bytes(value));
    }

    /** Sorts {@code records} (stably) by {@code comparator} on their raw keys. */
    static List<Raw> sorted(List<Raw> records, RawComparator<Object> comparator) {
        List<Raw> copy = new ArrayList<>(records);
        copy.sort((a, b) -> comparator.compare(a.key(), 0, a.key().length, b.key(), 0, b.key().length));
        return copy;
    }

    /** The records laid out back to back in IFile layout (no EOF marker). */
    static byte[] layout(List<Raw> records) {
        RecordBatch batch = new RecordBatch();
        for (Raw r : records) {
            batch.append(r.key(), 0, r.key().length, r.value(), 0, r.value().length);
        }
        return Arrays.copyOf(batch.data(), batch.byteLength());
    }

    /** Every record of {@code run} until it ends; fails if it reports no data yet. */
    static List<Raw> drain(SortedRun run) throws IOException {
        List<Raw> out = new ArrayList<>();
        while (true) {
            Advance a = run.advance();
            if (a == Advance.END) {
                return out;
            }
            if (a != Advance.RECORD) {
                throw new AssertionError("unexpected " + a);
            }
            out.add(new Raw(run.key().copy(), run.value().copy()));
        }
    }

    /** Parses a list of wire chunks back into records. */
    static List<Raw> parseChunks(List<byte[]> chunks) throws IOException {
        ChunkQueueRun run = new ChunkQueueRun("parsed output");
        for (byte[] c : chunks) {
            run.offer(c, c.length);
        }
        run.finish();
        return drain(run);
    }

    /** A sink collecting chunks trimmed to their length. */
    static final class CollectingSink implements ChunkSink {
        final List<byte[]> chunks = new ArrayList<>();
        final List<Integer> capacities = new ArrayList<>();

        @Override
        public void accept(byte[] chunk, int length) {
            chunks.add(Arrays.copyOf(chunk, length));
            capacities.add(chunk.length);
        }
    }
}
