package org.camdoop.shuffle.service.vertex;

import java.util.ArrayDeque;

/**
 * The chunks a vertex holds per child, oldest first, with how many it has released: a chunk goes back to the transport
 * (returning its credit) once the merge has moved past it. Owned by the vertex's thread.
 */
final class ChunkInputs {

    private final ArrayDeque<InboundChunk>[] queues;
    private final long[] released;

    @SuppressWarnings("unchecked")
    ChunkInputs(int inputs) {
        this.queues = new ArrayDeque[inputs];
        for (int i = 0; i < inputs; i++) {
            queues[i] = new ArrayDeque<>();
        }
        this.released = new long[inputs];
    }

    void add(int input, InboundChunk chunk) {
        queues[input].add(chunk);
    }

    /** Releases the chunks of {@code input} numbered below {@code count} (in arrival order) not yet released. */
    void releaseUpTo(int input, long count) {
        while (released[input] < count && !queues[input].isEmpty()) {
            queues[input].poll().release().run();
            released[input]++;
        }
    }

    void releaseAll() {
        for (int i = 0; i < queues.length; i++) {
            releaseUpTo(i, Long.MAX_VALUE);
        }
    }
}
