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

    /**
     * Resumes a stream that paused for lost map outputs: {@code replacements} maps each lost attempt of
     * {@code paused} to the new attempt of the same map whose output the shuffle reads instead. The stream goes on
     * with {@link #next()}.
     *
     * @throws IOException if the stream cannot be resumed (this source never pauses, or the daemon went away)
     */
    default void resume(StreamItem.Paused paused, java.util.SortedMap<String, String> replacements)
            throws IOException {
        throw new IOException("this stream cannot be resumed: it never pauses");
    }
}
