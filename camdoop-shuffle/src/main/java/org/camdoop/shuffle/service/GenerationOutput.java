package org.camdoop.shuffle.service;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Optional;
import org.apache.hadoop.io.RawComparator;
import org.camdoop.shuffle.protocol.EndOfStream;
import org.camdoop.shuffle.aggregation.JobAggregationSpec;
import org.camdoop.shuffle.protocol.ShuffleGeneration;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.records.ChunkIndex;
import org.camdoop.shuffle.records.HeldGroup;
import org.camdoop.shuffle.service.vertex.VertexOutput;
import org.camdoop.torus.topology.TorusShape;

/**
 * The root vertex's output of one generation of a shuffle, in front of the reduce task's {@link RootStream}. It
 * passes whole key groups only: the records of the last key of each chunk are held back until a record of a greater
 * key (or the end) shows that group complete. So at every moment the reducer has received all the records of every
 * key up to {@link ResumePoint#lastKey()} and none of a greater key, and a generation that resumes after that key
 * gives the reducer each record exactly once (docs/recovery.md). Finding the last group costs one pass over the
 * record headers and, usually, one key comparison per chunk.
 *
 * <p>A group larger than {@code maxHeldBytes} cannot be held back: it is passed on, and until the next group boundary
 * is passed the output has no exact resume point ({@link ResumePoint#exact()} false; a restart then fails the
 * shuffle instead of guessing). It also drops records at or before the generation's resume key, should any reach it:
 * the map-output readers skip them already.
 *
 * <p>Thread-safety: offers, the end and a failure come from the root vertex's thread, {@link #detach} from the
 * service's; all state is guarded by this object's monitor, taken before the {@link RootStream}'s lock.
 */
final class GenerationOutput implements VertexOutput {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(GenerationOutput.class);

    /** Where the reducer stands: every record of every key up to {@code lastKey} (none yet if empty) and no more. */
    record ResumePoint(Optional<byte[]> lastKey, boolean exact) {

        /** Why the next generation cannot resume from here, or null if it can. */
        String whyNotResumable(boolean tooManyRestarts, int maxGenerations, int maxHeldBytes) {
            if (!exact) {
                return "the reducer was receiving a key group larger than " + maxHeldBytes
                        + " bytes, which a restart cannot resume exactly";
            }
            if (tooManyRestarts) {
                return "it was restarted " + (maxGenerations - 1) + " times already";
            }
            if (lastKey.map(k -> k.length > ShuffleGeneration.MAX_RESUME_KEY_BYTES).orElse(false)) {
                return "its last key delivered is longer than " + ShuffleGeneration.MAX_RESUME_KEY_BYTES + " bytes";
            }
            return null;
        }
    }

    private final RootStream stream;
    private final RawComparator<Object> order;
    private final int maxHeldBytes;
    /** Appended to a failure's reason: which generation failed, on which failure view. */
    private final String failureNote;
    private final ChunkIndex records = new ChunkIndex("root output");
    /** Records at or before this key are dropped; null once a greater key passed. */
    private byte[] skipThrough;
    private final HeldGroup held = new HeldGroup();
    private Optional<byte[]> lastKey;
    private boolean exact = true;
    private boolean detached;
    /** For a restarted generation: what to log when its first new records pass, a few ms after it began. */
    private String restarted;
    private long bornNanos;

    /**
     * @param resumeAfter the generation's resume key: the reducer already has everything up to it
     * @param maxHeldBytes the largest key group held back whole
     * @param failureNote  appended to the reason of a failure, e.g. the generation and the servers it runs without
     */
    GenerationOutput(RootStream stream, RawComparator<Object> order, Optional<byte[]> resumeAfter, int maxHeldBytes,
            String failureNote) {
        this.stream = stream;
        this.failureNote = failureNote;
        this.order = order;
        this.maxHeldBytes = maxHeldBytes;
        this.skipThrough = resumeAfter.orElse(null);
        this.lastKey = resumeAfter;
    }

    /**
     * The output of {@code spec}'s root vertex in front of {@code root}; for a job this daemon does not know (its
     * root vertex fails at once, with the reason) the stream itself.
     */
    static VertexOutput of(RootStream root, Optional<JobAggregationSpec> job, ShuffleSpec spec, TorusShape shape,
            int maxHeldBytes) {
        ShuffleGeneration g = spec.generation();
        String note = g.number() == 0 ? "" : " (generation " + g.number() + ", restarted without the failed servers "
                + Arrays.stream(g.failed()).mapToObj(shape::coord).toList() + ")";
        return job.<VertexOutput>map(a -> {
            GenerationOutput out = new GenerationOutput(root, a.sortComparator(), g.resumeAfter(), maxHeldBytes, note);
            if (g.number() > 0) {
                out.restarted = spec.describe();
                out.bornNanos = System.nanoTime();
            }
            return out;
        }).orElse(root);
    }

    /** Stops passing anything on (a later generation takes over) and tells where the reducer stands. */
    synchronized ResumePoint detach() {
        detached = true;
        held.clear();
        return new ResumePoint(lastKey.map(byte[]::clone), exact);
    }

    @Override
    public synchronized boolean offer(byte[] chunk, int length) {
        if (detached) {
            return true; // a superseded generation's vertex: its output goes nowhere
        }
        if (!stream.hasRoom()) {
            return false;
        }
        int n = index(chunk, length);
        int first = 0;
        if (skipThrough != null) {
            while (first < n && records.compare(order, first, skipThrough) <= 0) {
                first++;
            }
            if (first == n) {
                return true;
            }
            skipThrough = null;
        }
        if (restarted != null) {
            // The restart's cost beyond detection: every vertex set up again and filled from its leaves up.
            LOG.info("shuffle {}: its first new records passed {} ms after the generation began", restarted,
                    (System.nanoTime() - bornNanos) / 1_000_000L);
            restarted = null;
        }
        int lastGroup = records.lastGroup(order, first);
        if (lastGroup == first && held.continues(records, order, first)) {
            held.append(chunk, records.start(first), length);
            if (held.length() > maxHeldBytes) {
                // Too large to hold: pass it on; the reducer now has part of this key's records.
                stream.offerPair(held.bytes(), held.length(), chunk, 0);
                lastKey = Optional.of(held.key());
                exact = false;
                held.clear();
            }
            return true;
        }
        byte[] prefix = chunk;
        int prefixLength = records.start(lastGroup);
        if (first > 0) {
            prefix = Arrays.copyOfRange(chunk, records.start(first), records.start(lastGroup));
            prefixLength = prefix.length;
        } else if (prefixLength == 0) {
            prefix = null;
        }
        if (!held.isEmpty() || prefixLength > 0) {
            stream.offerPair(held.bytes(), held.length(), prefix == null ? new byte[0] : prefix, prefixLength);
            lastKey = Optional.of(prefixLength > 0 ? records.key(lastGroup - 1) : held.key());
            exact = true;
        }
        held.hold(chunk, records.start(lastGroup), length, records.key(lastGroup));
        return true;
    }

    @Override
    public void whenWritable(Runnable wake) {
        synchronized (this) {
            if (!detached) {
                stream.whenWritable(wake);
                return;
            }
        }
        wake.run();
    }

    @Override
    public synchronized void end(EndOfStream end) {
        if (!detached) {
            stream.endWith(held.bytes(), held.length(), end);
            held.clear();
        }
    }

    @Override
    public synchronized void fail(String reason) {
        if (!detached) {
            stream.fail(reason + failureNote);
        }
    }

    /** Indexes the records of {@code chunk[0, length)}; returns their count. */
    private int index(byte[] chunk, int length) {
        try {
            return records.index(chunk, 0, length);
        } catch (IOException e) {
            // The chunk comes from this daemon's own root vertex: a corrupt one is a bug, not bad input.
            throw new UncheckedIOException(e);
        }
    }
}
