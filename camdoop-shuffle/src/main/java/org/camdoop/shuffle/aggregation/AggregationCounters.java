package org.camdoop.shuffle.aggregation;

import org.camdoop.shuffle.records.RecordLayout;
/**
 * What one vertex stream reports: records and bytes entering the merge, and leaving towards the parent. Bytes are
 * counted in the IFile record layout (length headers included), i.e. what the records occupy on the wire.
 * Owned by the vertex's thread; others read a {@link #toString()} snapshot or copy the values on that thread.
 */
public final class AggregationCounters {
    private long recordsIn;
    private long bytesIn;
    private long recordsOut;
    private long bytesOut;

    void recordIn(int keyLength, int valueLength) {
        recordsIn++;
        bytesIn += RecordLayout.recordSize(keyLength, valueLength);
    }

    void recordOut(int keyLength, int valueLength) {
        recordsOut++;
        bytesOut += RecordLayout.recordSize(keyLength, valueLength);
    }

    public long recordsIn() {
        return recordsIn;
    }

    public long bytesIn() {
        return bytesIn;
    }

    public long recordsOut() {
        return recordsOut;
    }

    public long bytesOut() {
        return bytesOut;
    }

    /** Records the combiner folded away: records in minus records out. */
    public long recordsCombined() {
        return recordsIn - recordsOut;
    }

    @Override
    public String toString() {
        return "records in " + recordsIn + ", out " + recordsOut + " (combined " + recordsCombined() + "); bytes in "
                + bytesIn + ", out " + bytesOut;
    }
}
