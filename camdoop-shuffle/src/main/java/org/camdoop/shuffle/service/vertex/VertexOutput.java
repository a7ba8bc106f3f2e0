package org.camdoop.shuffle.service.vertex;

import org.camdoop.shuffle.protocol.EndOfStream;
/**
 * Where a vertex sends what it emits: a stream to its parent, or, at the root, the reduce task. The seam between the
 * vertex logic and the transport. Called only from the vertex's own thread.
 */
public interface VertexOutput {

    /**
     * Offers {@code chunk[0, length)} (whole records). Returns {@code false} when the receiver has no room now (no
     * credit); the vertex then keeps the chunk and waits for {@link #whenWritable}. On {@code true} the output owns the
     * array.
     */
    boolean offer(byte[] chunk, int length);

    /** Runs {@code wake} once, from any thread, when {@link #offer} may succeed again. */
    void whenWritable(Runnable wake);

    /**
     * Whether chunks this output accepted still wait to leave this daemon (queued behind credit or the link). A partly
     * filled chunk offered now would only queue behind them, so a blocked vertex keeps filling it until they left.
     */
    default boolean hasUnsent() {
        return false;
    }

    /** Runs {@code wake} once, from any thread, when nothing accepted waits to leave (at once if nothing does). */
    default void whenSent(Runnable wake) {
        wake.run();
    }

    /** Everything was offered: closes the stream with the vertex's end-of-stream summary. */
    void end(EndOfStream end);

    /** The vertex failed: the receiver learns why and stops waiting. */
    void fail(String reason);
}
