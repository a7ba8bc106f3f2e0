package org.camdoop.shuffle.aggregation;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * A sorted run fed with chunks as they arrive from a child vertex. Every chunk holds whole IFile-layout records (no
 * record spans two chunks; see {@link RecordChunkWriter}) and no EOF marker: the end of the stream is signalled by
 * {@link #finish()}. While the queue is empty and the stream is not finished, {@link #advance()} reports
 * {@link Advance#NO_DATA_YET}, which is how the merger learns which input to wait for.
 *
 * <p>Single-threaded: the transport must hand chunks over on the vertex's own thread. A chunk's bytes must stay
 * unmodified until the run has moved past it; queued chunks are the only buffering, so the transport's credits bound it.
 */
public final class ChunkQueueRun extends ChunkedRun {
    private enum State { OPEN, FINISHING, ENDED }

    /** A queued chunk; only counted ones are numbered in {@link #chunksConsumed()}. */
    private record Queued(ByteBuffer bytes, boolean counted) {
    }

    private final ArrayDeque<Queued> queue = new ArrayDeque<>();
    private State state = State.OPEN;
    private long chunksConsumed;

    /** A run whose errors name {@code label} (e.g. "child on tree 2"). */
    public ChunkQueueRun(String label) {
        super(label);
    }

    /**
     * Queues a chunk of whole records (an empty one is dropped). Array-backed buffers are used in place; direct ones
     * are copied once.
     */
    public void offer(ByteBuffer chunk) {
        if (chunk.hasRemaining()) {
            offer(chunk, true);
        } else if (state != State.OPEN) {
            throw new IllegalStateException("chunk offered after finish()");
        }
    }

    /**
     * Queues a chunk of whole records. A counted one is numbered in {@link #chunksConsumed()} even if empty (its
     * caller may have held back all of it); an uncounted one (bytes its caller copied out of the chunks it counts, e.g.
     * a key group held back across chunks) is not, so that count still says how many of the caller's own chunks the
     * run has entered.
     */
    public void offer(ByteBuffer chunk, boolean counted) {
        if (state != State.OPEN) {
            throw new IllegalStateException("chunk offered after finish()");
        }
        if (counted || chunk.hasRemaining()) {
            queue.add(new Queued(chunk.slice(), counted));
        }
    }

    /** Queues {@code chunk[0, length)} of whole records. */
    public void offer(byte[] chunk, int length) {
        offer(ByteBuffer.wrap(chunk, 0, length));
    }

    /** Marks the end of the stream: once the queued chunks are consumed the run ends. */
    public void finish() {
        if (state == State.OPEN) {
            state = State.FINISHING;
        }
    }

    /** Whether the run has reported its end: every chunk it was given has been read to the last record. */
    public boolean ended() {
        return state == State.ENDED;
    }

    /** Chunks taken off the queue so far (the transport may return their credits: their bytes are no longer queued). */
    public long chunksConsumed() {
        return chunksConsumed;
    }

    @Override
    protected Advance afterChunk() throws IOException {
        while (true) {
            Queued next = queue.poll();
            if (next == null) {
                switch (state) {
                    case OPEN:
                        return Advance.NO_DATA_YET;
                    case FINISHING:
                    case ENDED:
                        state = State.ENDED;
                        return Advance.END;
                    default:
                        throw new AssertionError(state);
                }
            }
            if (next.counted()) {
                chunksConsumed++;
            }
            loadChunk(next.bytes());
            if (nextInChunk()) {
                return Advance.RECORD;
            }
        }
    }

    private void loadChunk(ByteBuffer chunk) {
        if (chunk.hasArray()) {
            cursor.reset(chunk.array(), chunk.arrayOffset() + chunk.position(), chunk.remaining());
        } else {
            byte[] copy = new byte[chunk.remaining()];
            chunk.get(copy);
            cursor.reset(copy, 0, copy.length);
        }
    }

    @Override
    public void close() {
        queue.clear();
        dropChunk();
        state = State.ENDED;
    }
}
