package org.camdoop.shuffle.service.vertex;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Optional;
import org.apache.hadoop.io.RawComparator;
import org.camdoop.shuffle.aggregation.ChunkQueueRun;
import org.camdoop.shuffle.records.ChunkIndex;
import org.camdoop.shuffle.records.HeldGroup;

/**
 * One input of a vertex that a tree repair may replace (docs/recovery.md, "Tree repair"): it hands the merge whole
 * key groups only, holding the records of each chunk's last key until a record of a greater key (or the end) shows that
 * group complete, the rule {@code GenerationOutput} applies to the root's output. So at every moment the merge has
 * been given every record of this input up to {@link #lastKey()} and none of a greater key, and a stream that replaces
 * this one, carrying the same map outputs' records (the rebuilt subtree's), resumes exactly after that key.
 *
 * <p>Costs one pass over the record headers of each chunk and, usually, one key comparison and a copy of the last
 * group. Each chunk given to {@link #offer} is queued on the run exactly once, counted (possibly emptied of its held
 * tail), so the run's {@link ChunkQueueRun#chunksConsumed()} still numbers the chunks the vertex must release; the held
 * groups are copies, queued uncounted.
 *
 * <p>A group larger than {@code maxHeldBytes} is passed on part by part; until the next group boundary the input has
 * no exact resume point ({@link #exact()} false, and a repair restarts the whole shuffle instead).
 *
 * <p>Owned by the vertex's thread.
 */
final class WholeGroupInput {

    private final RawComparator<Object> order;
    private final int maxHeldBytes;
    private final ChunkIndex records;
    private final HeldGroup held = new HeldGroup();
    private byte[] lastKey;
    private boolean exact = true;
    /** After a cut: the replacing stream's records at or before this key are dropped; null once a greater one came. */
    private byte[] skipThrough;

    WholeGroupInput(RawComparator<Object> order, int maxHeldBytes, String label) {
        this.order = order;
        this.maxHeldBytes = maxHeldBytes;
        this.records = new ChunkIndex(label);
    }

    /** The last key the run was given whole (empty if none yet). */
    Optional<byte[]> lastKey() {
        return Optional.ofNullable(lastKey).map(byte[]::clone);
    }

    /** Whether every record of {@link #lastKey()} has been given to the run. */
    boolean exact() {
        return exact;
    }

    /** Queues {@code chunk}'s whole groups on {@code run} and holds back its last group. */
    void offer(ByteBuffer chunk, ChunkQueueRun run) throws IOException {
        byte[] a;
        int from;
        int length = chunk.remaining();
        if (chunk.hasArray()) {
            a = chunk.array();
            from = chunk.arrayOffset() + chunk.position();
        } else {
            a = new byte[length]; // the run would copy it too
            chunk.duplicate().get(a);
            from = 0;
        }
        int end = from + length;
        int n = records.index(a, from, length);
        int first = 0;
        if (skipThrough != null) {
            while (first < n && records.compare(order, first, skipThrough) <= 0) {
                first++;
            }
            if (first < n) {
                skipThrough = null;
            }
        }
        if (first == n) {
            run.offer(ByteBuffer.wrap(a, from, 0), true);
            return;
        }
        int lastGroup = records.lastGroup(order, first);
        if (lastGroup == first && held.continues(records, order, first)) {
            run.offer(ByteBuffer.wrap(a, from, 0), true);
            held.append(a, records.start(first), end);
            if (held.length() > maxHeldBytes) {
                run.offer(ByteBuffer.wrap(held.bytes(), 0, held.length()), false);
                lastKey = held.key();
                exact = false;
                held.clear();
            }
            return;
        }
        if (!held.isEmpty()) {
            // Complete: this chunk goes on past its key (or starts after it).
            run.offer(ByteBuffer.wrap(held.bytes(), 0, held.length()), false);
            lastKey = held.key();
            exact = true;
        } else if (!exact && records.compare(order, first, lastKey) > 0) {
            exact = true; // the group passed on part by part has ended
        }
        run.offer(ByteBuffer.wrap(a, records.start(first), records.start(lastGroup) - records.start(first)), true);
        if (lastGroup > first) {
            lastKey = records.key(lastGroup - 1);
            exact = true;
        }
        held.hold(a, records.start(lastGroup), end, records.key(lastGroup));
    }

    /** The stream ended: its last group is whole. */
    void finish(ChunkQueueRun run) {
        if (!held.isEmpty()) {
            run.offer(ByteBuffer.wrap(held.bytes(), 0, held.length()), false);
            lastKey = held.key();
            exact = true;
            held.clear();
        }
        run.finish();
    }

    /**
     * The stream is replaced: drops the group held back (the replacing stream carries it again) and from now on drops
     * the records at or before {@link #lastKey()}, should any reach it (the replacing tree's readers skip them).
     */
    void cut() {
        held.clear();
        skipThrough = lastKey;
    }
}
