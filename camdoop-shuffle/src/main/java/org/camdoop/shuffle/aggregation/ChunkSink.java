package org.camdoop.shuffle.aggregation;

import java.io.IOException;

/** Receives the wire chunks a {@link RecordChunkWriter} fills (the transport, or a test's list). */
@FunctionalInterface
public interface ChunkSink {
    /**
     * Takes ownership of {@code chunk[0, length)}: whole IFile-layout records, no EOF marker. The writer never touches
     * the array again.
     */
    void accept(byte[] chunk, int length) throws IOException;
}
