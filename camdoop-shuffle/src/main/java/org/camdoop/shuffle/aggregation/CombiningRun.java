package org.camdoop.shuffle.aggregation;

import java.io.IOException;
import org.camdoop.shuffle.records.RawBytes;

/**
 * Applies the job's combiner to a merged sorted run, on path. Records are gathered by key group (the job's combiner
 * grouping comparator); a group is <em>complete</em> only once the upstream run shows a different key or ends, because
 * until then more values for that key may still arrive from another input of the merge. Complete groups are combined
 * in batches of about {@link JobAggregationSpec#combineBatchBytes()} bytes, and also as soon as the upstream run blocks,
 * so a waiting vertex still forwards everything it can.
 *
 * <p><b>Single-record groups skip the combiner</b> and pass through byte for byte ({@link #closeOpenGroup()}, the one
 * place this is decided). Hadoop's contract lets a combiner run zero, one or more times on any subset of a key's values
 * (Hadoop itself skips it in merges of fewer than {@code mapreduce.map.combine.minspills} spills), so a correct job's
 * output is unchanged; and a combiner cannot fold one record into fewer, so running it there would only cost a
 * deserialization and a serialization per record, which is all of the work when keys are unique (S=1). Group sizes are
 * known for free: the comparison that closes a group is the one the grouping needs anyway.
 *
 * <p>Memory: one batch plus the open group, and the combiner's output for the batch. A key with more values than fit in
 * a batch still waits for its whole group (combining a partial group early is legal for a combiner but not done yet).
 *
 * <p>Single-threaded, like every run. Assumes, as Hadoop does, that the combiner emits records under its input key, so
 * the output stays sorted.
 */
public final class CombiningRun implements SortedRun {
    private enum State { COLLECTING, EMITTING, ENDED }

    private final SortedRun upstream;
    private final KeyOrder grouping;
    private final CombinerFunction combiner;
    private final int batchBytes;
    private final RecordBatch pending = new RecordBatch();
    private final RecordBatch output = new RecordBatch();
    /** The complete groups at the front of {@link #pending}: those of one record, and those of more (for the combiner). */
    private final ByteRanges singletons = new ByteRanges();
    private final ByteRanges multiples = new ByteRanges();
    private final CombinedBatchOutput emitted;
    private State state = State.COLLECTING;
    private boolean upstreamEnded;
    /** Bytes and records at the front of {@link #pending} that form complete groups. */
    private int completeBytes;
    private int completeRecords;
    /** Where the open (last, possibly incomplete) group starts in {@link #pending}, its key, and its record count. */
    private int openGroupStart;
    private int openKeyOffset;
    private int openKeyLength;
    private int openGroupRecords;

    /** Combines {@code upstream} (sorted by the job's comparator) with the job's combiner. */
    public CombiningRun(SortedRun upstream, JobAggregationSpec spec) throws IOException {
        this.upstream = upstream;
        this.grouping = KeyOrder.of(spec.combinerGroupingComparator());
        this.combiner = spec.combiner()
                .orElseThrow(() -> new IllegalArgumentException("job has no combiner; merge without CombiningRun"))
                .create(spec);
        this.batchBytes = spec.combineBatchBytes();
        this.emitted = new CombinedBatchOutput(spec.sortComparator());
    }

    @Override
    public Advance advance() throws IOException {
        while (true) {
            switch (state) {
                case EMITTING:
                    if (emitted.next()) {
                        return Advance.RECORD;
                    }
                    dropEmittedBatch();
                    state = upstreamEnded ? State.ENDED : State.COLLECTING;
                    break;
                case COLLECTING:
                    Advance step = upstream.advance();
                    if (step == Advance.RECORD) {
                        collect(upstream.key(), upstream.value());
                        if (completeBytes >= batchBytes) {
                            combineCompleteGroups();
                        }
                    } else if (step == Advance.NO_DATA_YET) {
                        if (completeBytes == 0) {
                            return Advance.NO_DATA_YET;
                        }
                        combineCompleteGroups();
                    } else {
                        upstreamEnded = true;
                        if (pending.byteLength() > completeBytes) {
                            closeOpenGroup();
                        }
                        if (completeBytes == 0) {
                            state = State.ENDED;
                        } else {
                            combineCompleteGroups();
                        }
                    }
                    break;
                case ENDED:
                    return Advance.END;
                default:
                    throw new AssertionError(state);
            }
        }
    }

    private void collect(RawBytes k, RawBytes v) {
        boolean openGroupExists = pending.byteLength() > completeBytes;
        if (openGroupExists && grouping.compare(pending.data(), openKeyOffset, openKeyLength,
                k.array(), k.offset(), k.length()) != 0) {
            closeOpenGroup();
            openGroupExists = false;
        }
        int recordStart = pending.byteLength();
        int keyOffset = pending.append(k, v);
        if (!openGroupExists) {
            openGroupStart = recordStart;
            openKeyOffset = keyOffset;
            openKeyLength = k.length();
            openGroupRecords = 0;
        }
        openGroupRecords++;
    }

    /**
     * Marks the open group complete. The pass-through rule lives here: a group of one record goes to
     * {@link #singletons} and is emitted as it is, never through the combiner (why: see the class comment).
     */
    private void closeOpenGroup() {
        int end = pending.byteLength();
        (openGroupRecords == 1 ? singletons : multiples).add(openGroupStart, end);
        completeBytes = end;
        completeRecords = pending.records();
    }

    private void combineCompleteGroups() throws IOException {
        output.clear();
        if (!multiples.isEmpty()) {
            combiner.combine(pending.iterator(multiples), output);
        }
        emitted.reset(output.data(), output.byteLength(), pending.data(), singletons);
        state = State.EMITTING;
    }

    /** Frees the batch just emitted (its singletons were views of {@link #pending}), keeping the open group. */
    private void dropEmittedBatch() {
        pending.dropPrefix(completeBytes, completeRecords);
        openGroupStart -= completeBytes;
        openKeyOffset -= completeBytes;
        completeBytes = 0;
        completeRecords = 0;
        singletons.clear();
        multiples.clear();
        output.clear();
    }

    @Override
    public RawBytes key() {
        return emitted.key();
    }

    @Override
    public RawBytes value() {
        return emitted.value();
    }

    @Override
    public void close() throws IOException {
        state = State.ENDED;
        upstream.close();
    }
}
