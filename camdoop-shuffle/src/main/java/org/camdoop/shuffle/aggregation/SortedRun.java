package org.camdoop.shuffle.aggregation;

import java.io.Closeable;
import java.io.IOException;
import org.camdoop.shuffle.records.RawBytes;

/**
 * A cursor over raw key/value records sorted by the job's output key comparator: a map output partition, an in-memory
 * buffer, a stream arriving from a child vertex, or a merge of other runs.
 *
 * <p>Single-threaded: a run belongs to the one thread driving its vertex. The views returned by {@link #key()} and
 * {@link #value()} stay valid only until the next {@link #advance()}.
 */
public interface SortedRun extends Closeable {

    /** Moves to the next record, or reports that none is available yet, or that the run ended. */
    Advance advance() throws IOException;

    /** The current record's serialized key; valid after {@link Advance#RECORD}. */
    RawBytes key();

    /** The current record's serialized value; valid after {@link Advance#RECORD}. */
    RawBytes value();

    /**
     * Whether {@link #key()} and {@link #value()} return the same two objects for the life of the run, each advance
     * updating them in place. A merge then takes them once instead of asking on every record: its inputs are of
     * several classes, so every such call is an interface dispatch the JIT cannot inline.
     */
    default boolean stableViews() {
        return false;
    }

    /** Releases files, decompressors and buffers; idempotent. */
    @Override
    void close() throws IOException;
}
