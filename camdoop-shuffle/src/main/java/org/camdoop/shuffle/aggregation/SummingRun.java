package org.camdoop.shuffle.aggregation;

import java.io.IOException;
import org.camdoop.shuffle.records.RawBytes;
import org.camdoop.shuffle.records.RecordCursor;

/**
 * On-path combining for Hadoop's summing reducers ({@link SummingCombiner}), one group at a time as the merge yields
 * it: the values are summed as they pass, and a group's record is emitted as soon as the next key (or the end) shows it
 * complete. Its output is {@link CombiningRun}'s with the same combiner, byte for byte: a group of one record passes
 * through as it is, a larger group becomes what the reducer writes for it ({@link SummingCombiner#emitGroup}: its last
 * key and the sum), and a short value in a larger group fails as there. What it saves is the batch: no copy of every
 * record into a batch, no second parse of it and no second key comparison per record to find the groups again; per
 * record it keeps a copy of the key (the group's last key is what the reducer writes) and adds the value.
 *
 * <p>A group is complete only once the merge shows a different key or ends, as in {@link CombiningRun}; while the merge
 * has no data yet the open group waits, and everything before it has already been emitted.
 *
 * <p>Memory: the open group's last key and first value, and the record being emitted. Single-threaded, like every run.
 */
final class SummingRun implements SortedRun {
    private final SortedRun upstream;
    private final KeyOrder grouping;
    private final SummingCombiner combiner;
    /** The merge feeding this run when it compares keys in the grouping's form (the usual case), else null. */
    private final KWayMerger comparedUpstream;
    private final RecordBatch emitted = new RecordBatch();
    private final RecordCursor cursor = new RecordCursor("summed group");
    private final RawBytes key = new RawBytes();
    private final RawBytes value = new RawBytes();
    private byte[] groupKey = new byte[64];
    private int groupKeyLength;
    /** The open group's last key as compared (on {@link #groupKey}), and the record's the merge just yielded. */
    private NormalizedKey group = new NormalizedKey();
    private NormalizedKey incoming = new NormalizedKey();
    /** The open group's first value, emitted as it is if the group stays a single record. */
    private byte[] firstValue = new byte[16];
    private int firstValueLength;
    /** Records in the open group; 0 when there is none. */
    private long groupRecords;
    private long sum;
    private boolean upstreamEnded;

    SummingRun(SortedRun upstream, JobAggregationSpec spec, SummingCombiner combiner) {
        this.upstream = upstream;
        this.grouping = KeyOrder.of(spec.combinerGroupingComparator());
        this.combiner = combiner;
        this.comparedUpstream = upstream instanceof KWayMerger merger && merger.keyOrder().sameNormalForm(grouping)
                ? merger : null;
    }

    @Override
    public Advance advance() throws IOException {
        while (!upstreamEnded) {
            Advance step = upstream.advance();
            if (step == Advance.NO_DATA_YET) {
                return Advance.NO_DATA_YET;
            }
            if (step == Advance.END) {
                upstreamEnded = true;
                break;
            }
            RawBytes k = upstream.key();
            RawBytes v = upstream.value();
            if (comparedUpstream != null) {
                incoming.copyFrom(comparedUpstream.currentComparedKey());
            } else {
                incoming.set(grouping, k);
            }
            if (groupRecords > 0 && group.compareTo(incoming, grouping) == 0) {
                add(k, v);
                continue;
            }
            boolean emitting = groupRecords > 0;
            if (emitting) {
                emitGroup();
            }
            open(k, v);
            if (emitting) {
                return Advance.RECORD;
            }
        }
        if (groupRecords > 0) {
            emitGroup();
            return Advance.RECORD;
        }
        return Advance.END;
    }

    private void open(RawBytes k, RawBytes v) {
        copyKey(k);
        if (firstValue.length < v.length()) {
            firstValue = new byte[Math.max(v.length(), 2 * firstValue.length)];
        }
        System.arraycopy(v.array(), v.offset(), firstValue, 0, v.length());
        firstValueLength = v.length();
        groupRecords = 1;
    }

    private void add(RawBytes k, RawBytes v) throws IOException {
        if (groupRecords == 1) {
            sum = combiner.valueOf(firstValue, 0, firstValueLength);
        }
        sum += combiner.valueOf(v.array(), v.offset(), v.length());
        groupRecords++;
        copyKey(k);
    }

    /** Copies the key the merge just yielded as the group's last key, with its compared form ({@link #incoming}). */
    private void copyKey(RawBytes k) {
        if (groupKey.length < k.length()) {
            groupKey = new byte[Math.max(k.length(), 2 * groupKey.length)];
        }
        System.arraycopy(k.array(), k.offset(), groupKey, 0, k.length());
        groupKeyLength = k.length();
        NormalizedKey copied = incoming;
        incoming = group;
        group = copied;
        group.movedTo(groupKey);
    }

    /** Makes the open group's record the current one (valid until the next advance) and closes the group. */
    private void emitGroup() throws IOException {
        emitted.clear();
        int keyOffset;
        int valueLength;
        if (groupRecords == 1) {
            keyOffset = emitted.append(groupKey, 0, groupKeyLength, firstValue, 0, firstValueLength);
            valueLength = firstValueLength;
        } else {
            keyOffset = combiner.emitGroup(groupKey, groupKeyLength, sum, emitted);
            valueLength = combiner.valueBytes();
        }
        groupRecords = 0;
        if (keyOffset >= 0) {
            key.set(emitted.data(), keyOffset, groupKeyLength);
            value.set(emitted.data(), keyOffset + groupKeyLength, valueLength);
            return;
        }
        cursor.reset(emitted.data(), 0, emitted.byteLength());
        if (!cursor.next(key, value)) {
            throw new IllegalStateException("the summing combiner wrote no record for a group");
        }
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
    public boolean stableViews() {
        return true;
    }

    @Override
    public void close() throws IOException {
        upstreamEnded = true;
        groupRecords = 0;
        upstream.close();
    }
}
