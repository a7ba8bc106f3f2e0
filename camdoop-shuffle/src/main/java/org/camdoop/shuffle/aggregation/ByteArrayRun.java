package org.camdoop.shuffle.aggregation;

import java.io.IOException;
import org.camdoop.shuffle.records.RawBytes;
import org.camdoop.shuffle.records.RecordCursor;

/**
 * A sorted run over IFile-layout records already in memory (a test fixture, a combiner's output, a map output held in
 * memory). Never reports {@link Advance#NO_DATA_YET}. The caller must not modify the bytes while the run is open.
 */
public final class ByteArrayRun implements SortedRun {
    private final RecordCursor cursor;
    private final RawBytes key = new RawBytes();
    private final RawBytes value = new RawBytes();

    /** A run over {@code data[offset, offset + length)}. */
    public ByteArrayRun(byte[] data, int offset, int length) {
        cursor = new RecordCursor("in-memory run");
        cursor.reset(data, offset, length);
    }

    /** A run over all of {@code data}. */
    public ByteArrayRun(byte[] data) {
        this(data, 0, data.length);
    }

    /** A source whose every {@link RunSource#open()} is a fresh cursor over the same bytes (the bytes are not copied). */
    public static RunSource source(byte[] data) {
        return () -> new ByteArrayRun(data);
    }

    @Override
    public Advance advance() throws IOException {
        return cursor.next(key, value) ? Advance.RECORD : Advance.END;
    }

    @Override
    public RawBytes key() {
        return key;
    }

    @Override
    public RawBytes value() {
        return value;
    }

    @Override
    public boolean stableViews() {
        return true;
    }

    @Override
    public void close() {}
}
