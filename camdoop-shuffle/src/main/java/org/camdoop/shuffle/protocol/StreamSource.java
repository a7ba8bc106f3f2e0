package org.camdoop.shuffle.protocol;

import java.io.Closeable;
import java.io.IOException;

/**
 * Where a reduce attempt's merged stream comes from: the local daemon's socket, or an embedded torus in local mode.
 * Used by one thread (the reduce task's).
 */
public interface StreamSource extends Closeable {
    /** The next Chunk, or the End or Failed that closes the stream; blocks. */
    StreamItem next() throws IOException, InterruptedException;
}
