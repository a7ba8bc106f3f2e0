package org.camdoop.shuffle.aggregation;

/**
 * A sorted run over IFile-layout records already in memory (a test fixture, a combiner's output, a map output held in
 * memory). Never reports {@link Advance#NO_DATA_YET}. The caller must not modify the bytes while the run is open.
 */
public final class ByteArrayRun extends ChunkedRun {

    /** A run over {@code data[offset, offset + length)}. */
    public ByteArrayRun(byte[] data, int offset, int length) {
        super("in-memory run");
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

    /** One chunk, the whole range: once it is read the run has ended. */
    @Override
    protected Advance afterChunk() {
        return Advance.END;
    }

    @Override
    public void close() {}
}
