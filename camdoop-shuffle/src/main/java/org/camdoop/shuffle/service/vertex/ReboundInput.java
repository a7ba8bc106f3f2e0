package org.camdoop.shuffle.service.vertex;

import org.camdoop.shuffle.protocol.EndOfStream;

/**
 * A child stream that a tree repair opened in place of one a root vertex was wired with: its events carry the repair's
 * number, so the vertex takes them for the input and drops what the replaced stream still delivers ({@link
 * ChildInputs}). Any thread.
 */
final class ReboundInput implements VertexInput {

    private final Vertex vertex;
    private final int binding;

    ReboundInput(Vertex vertex, int binding) {
        this.vertex = vertex;
        this.binding = binding;
    }

    @Override
    public void onChunk(int input, InboundChunk chunk) {
        vertex.chunkOn(input, chunk, binding);
    }

    @Override
    public void onEnd(int input, EndOfStream end) {
        vertex.endOn(input, end, binding);
    }

    @Override
    public void fail(String reason) {
        vertex.fail(reason);
    }

    @Override
    public void failInput(int input, String reason) {
        vertex.failOn(input, reason, binding);
    }
}
