package org.camdoop.shuffle.service.vertex;

import org.camdoop.shuffle.protocol.EndOfStream;

/** What a child stream's receiver hands a vertex: its chunks, its end, or why it failed. Any thread. */
public interface VertexInput {

    /** A chunk arrived on child stream {@code input}. */
    void onChunk(int input, InboundChunk chunk);

    /** Child stream {@code input} ended. */
    void onEnd(int input, EndOfStream end);

    /** Gives up, naming why. */
    void fail(String reason);

    /** Child stream {@code input} failed, naming why: the vertex gives up, unless that stream was replaced. */
    default void failInput(int input, String reason) {
        fail(reason);
    }
}
