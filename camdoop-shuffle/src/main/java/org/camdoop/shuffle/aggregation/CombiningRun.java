package org.camdoop.shuffle.aggregation;

import java.io.IOException;
import org.apache.hadoop.io.RawComparator;

/**
 * Applies the job's combiner to a merged sorted run, on path. Records are gathered by key group (the job's combiner
 * grouping comparator); a group is <em>complete</em> only once the upstream run shows a different key or ends, because
 * until then more values for that key may still arrive from another input of the merge. Complete groups are combined
 * in batches of about {@link JobAggregationSpec#combineBatchBytes()} bytes, and also as soon as the upstream run blocks,
 * so a waiting vertex still forwards everything it can.
 *
 * <p>Memory: one batch plus the open group. A key with more values than fit in a batch still waits for its whole group
 * (combining a partial group early is legal for a combiner but not done yet).
 *
 * <p>Single-threaded, like every run. Assumes, as Hadoop does, that the combiner emits records under its input key, so
 * the output stays sorted.
 */
public final class CombiningRun implements SortedRun {
    private enum State { COLLECTING, EMITTING, ENDED }

    private final SortedRun upstream;
    private final RawComparator<Object> grouping;
    private final CombinerFunction combiner;
    private final int batchBytes;
    private final RecordBatch pending = new RecordBatch();
    private final RecordBatch output = new RecordBatch();
    private final RecordCursor outputCursor = new RecordCursor("combiner output");
    private final RawBytes key = new RawBytes();
    private final RawBytes value = new RawBytes();
    private State state = State.COLLECTING;
    private boolean upstreamEnded;
    /** Bytes and records at the front of {@link #pending} that form complete groups. */
    private int completeBytes;
    private int completeRecords;
    /** Where the open (last, possibly incomplete) group's key sits in {@link #pending}. */
    private int openKeyOffset;
    private int openKeyLength;

    /** Combines {@code upstream} (sorted by the job's comparator) with the job's combiner. */
    public CombiningRun(SortedRun upstream, JobAggregationSpec spec) throws IOException {
        this.upstream = upstream;
        this.grouping = spec.combinerGroupingComparator();
        this.combiner = spec.combiner()
                .orElseThrow(() -> new IllegalArgumentException("job has no combiner; merge without CombiningRun"))
                .create(spec);
        this.batchBytes = spec.combineBatchBytes();
    }

    @Override
    public Advance advance() throws IOException {
        while (true) {
            switch (state) {
                case EMITTING:
                    if (outputCursor.next(key, value)) {
                        return Advance.RECORD;
                    }
                    output.clear();
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
                        completeBytes = pending.byteLength();
                        completeRecords = pending.records();
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
            completeBytes = pending.byteLength();
            completeRecords = pending.records();
            openGroupExists = false;
        }
        int keyOffset = pending.append(k, v);
        if (!openGroupExists) {
            openKeyOffset = keyOffset;
            openKeyLength = k.length();
        }
    }

    private void combineCompleteGroups() throws IOException {
        output.clear();
        combiner.combine(pending.iterator(completeBytes), output);
        pending.dropPrefix(completeBytes, completeRecords);
        openKeyOffset -= completeBytes;
        completeBytes = 0;
        completeRecords = 0;
        outputCursor.reset(output.data(), 0, output.byteLength());
        state = State.EMITTING;
    }

    @Override
    public RawBytes key() {
        return key;
    }

    @Override
    public RawBytes value() {
        return value;
    }

    @Override
    public void close() throws IOException {
        state = State.ENDED;
        upstream.close();
    }
}
