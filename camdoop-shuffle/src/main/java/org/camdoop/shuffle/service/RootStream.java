package org.camdoop.shuffle.service;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.camdoop.shuffle.protocol.EndOfStream;
import org.camdoop.shuffle.protocol.StreamItem;
import org.camdoop.shuffle.protocol.StreamItem.Chunk;
import org.camdoop.shuffle.protocol.StreamItem.End;
import org.camdoop.shuffle.protocol.StreamItem.Failed;
import org.camdoop.shuffle.protocol.StreamItem.Timeout;
import org.camdoop.shuffle.service.vertex.VertexOutput;

/**
 * The root vertex's output, handed to the reduce task: one sorted stream of chunks, then its end (or a failure). A
 * bounded queue between the root vertex's thread and the consumer's, so a slow reducer holds the root back, the root
 * holds its children back through credit, and so on down to the map-output readers.
 *
 * <p>All state is guarded by {@code lock}.
 */
public final class RootStream implements VertexOutput {

    private final int capacity;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** Chunks, and a {@link StreamItem.Paused} between them where the shuffle paused. */
    private final ArrayDeque<StreamItem> chunks = new ArrayDeque<>();
    private StreamItem last;
    private Runnable writable;
    private long bytes;

    /** @param capacity chunks buffered between the root vertex and the consumer */
    public RootStream(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1");
        }
        this.capacity = capacity;
    }

    /**
     * The next item, waiting up to {@code wait}: chunks in order (with any pause among them), then exactly one End or
     * Failed (repeated on further calls).
     */
    public StreamItem next(Duration wait) throws InterruptedException {
        Runnable wake = null;
        StreamItem result;
        lock.lock();
        try {
            long nanos = wait.toNanos();
            while (chunks.isEmpty() && last == null) {
                if (nanos <= 0) {
                    return new Timeout();
                }
                nanos = changed.awaitNanos(nanos);
            }
            if (!chunks.isEmpty()) {
                result = chunks.poll();
                wake = writable;
                writable = null;
            } else {
                result = last;
            }
        } finally {
            lock.unlock();
        }
        if (wake != null) {
            wake.run();
        }
        return result;
    }

    /** Bytes the root has delivered so far (what crossed into the reduce task). */
    public long bytesDelivered() {
        lock.lock();
        try {
            return bytes;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean offer(byte[] chunk, int length) {
        lock.lock();
        try {
            if (last != null) {
                return true; // ended or failed: nothing more reaches the reducer
            }
            if (chunks.size() >= capacity) {
                return false;
            }
            chunks.add(new Chunk(chunk, length));
            bytes += length;
            changed.signalAll();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Whether an offer would be taken now (only the consumer takes chunks out, so room does not vanish). */
    boolean hasRoom() {
        lock.lock();
        try {
            return chunks.size() < capacity;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Offers two chunks at once, in order, when there is room for one: a held-back key group and the chunk that
     * completed it ({@link GenerationOutput}). The queue may hold one chunk above its capacity this way.
     */
    boolean offerPair(byte[] first, int firstLength, byte[] second, int secondLength) {
        lock.lock();
        try {
            if (last != null) {
                return true;
            }
            if (chunks.size() >= capacity) {
                return false;
            }
            if (firstLength > 0) {
                chunks.add(new Chunk(first, firstLength));
                bytes += firstLength;
            }
            if (secondLength > 0) {
                chunks.add(new Chunk(second, secondLength));
                bytes += secondLength;
            }
            changed.signalAll();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Queues a pause after the chunks queued so far, whatever the room: the shuffle lost map outputs and waits for the
     * reduce task to name their replacements ({@link StreamItem.Paused}). Nothing is offered until it resumes.
     *
     * @return false if the stream had ended or failed already (the pause is dropped)
     */
    public boolean pause(StreamItem.Paused paused) {
        lock.lock();
        try {
            if (last != null) {
                return false;
            }
            chunks.add(paused);
            changed.signalAll();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Whether the stream's end or failure is queued: nothing more will be taken. */
    public boolean finished() {
        lock.lock();
        try {
            return last != null;
        } finally {
            lock.unlock();
        }
    }

    /** Queues the last chunk whatever the room (the end must not wait for credit), then the end. */
    void endWith(byte[] last, int length, EndOfStream end) {
        lock.lock();
        try {
            if (this.last == null && length > 0) {
                chunks.add(new Chunk(last, length));
                bytes += length;
            }
        } finally {
            lock.unlock();
        }
        end(end);
    }

    @Override
    public void whenWritable(Runnable wake) {
        boolean now;
        lock.lock();
        try {
            now = chunks.size() < capacity;
            if (!now) {
                writable = wake;
            }
        } finally {
            lock.unlock();
        }
        if (now) {
            wake.run();
        }
    }

    @Override
    public void end(EndOfStream end) {
        finish(new End(end));
    }

    @Override
    public void fail(String reason) {
        finish(new Failed(reason));
    }

    private void finish(StreamItem outcome) {
        lock.lock();
        try {
            if (last == null) {
                last = outcome;
                if (outcome instanceof Failed) {
                    // A pause not yet taken is moot: the reducer learns the failure after the chunks before it.
                    chunks.removeIf(i -> i instanceof StreamItem.Paused);
                }
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Waits for the end, discarding chunks; for callers that only need the outcome. */
    public StreamItem drain(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (true) {
            StreamItem n = next(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            if (!(n instanceof Chunk)) {
                return n;
            }
        }
    }
}
