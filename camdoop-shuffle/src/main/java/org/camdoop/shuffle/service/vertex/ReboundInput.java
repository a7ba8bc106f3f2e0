package org.camdoop.shuffle.service.vertex;

import org.camdoop.shuffle.protocol.EndOfStream;

/**
 * A child stream that a tree repair opened in place of one a vertex was wired with: its events carry the repair's
 * number, so the vertex takes them for the input and drops what the replaced stream still delivers ({@link
 * ChildInputs}). Its failure does not fail the vertex: it goes to {@code failed}, and the root restarts the shuffle
 * whole (the vertex, aborted with its generation, must not fail the reducer first). Any thread.
 */
final class ReboundInput implements VertexInput {

    private final Vertex vertex;
    private final int binding;
    private final java.util.function.Consumer<String> failed;

    ReboundInput(Vertex vertex, int binding, java.util.function.Consumer<String> failed) {
        this.vertex = vertex;
        this.binding = binding;
        this.failed = failed;
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
        failed.accept(reason);
    }

    @Override
    public void failInput(int input, String reason) {
        failed.accept(reason);
    }
}
