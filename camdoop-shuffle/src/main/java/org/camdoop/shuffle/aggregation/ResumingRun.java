package org.camdoop.shuffle.aggregation;

import java.io.IOException;
import org.apache.hadoop.io.RawComparator;
import org.camdoop.shuffle.records.RawBytes;

/**
 * A run that skips its records at or before a resume key (the job's sort order), for a restarted generation of a
 * shuffle (paper section 4.2: "the map task does not re-send (key,value) pairs before the last key known to have been
 * incorporated"). Runs are sorted, so once a record passes the key every later one does: the comparisons stop there.
 * Single-threaded, like the run it wraps.
 */
public final class ResumingRun implements SortedRun {
    private final SortedRun run;
    private final RawComparator<Object> order;
    private byte[] resumeAfter;

    public ResumingRun(SortedRun run, RawComparator<Object> order, byte[] resumeAfter) {
        this.run = run;
        this.order = order;
        this.resumeAfter = resumeAfter.clone();
    }

    /** {@code source}'s runs, each skipping to after {@code resumeAfter}. */
    public static RunSource resuming(RunSource source, RawComparator<Object> order, byte[] resumeAfter) {
        return () -> new ResumingRun(source.open(), order, resumeAfter);
    }

    @Override
    public Advance advance() throws IOException {
        while (true) {
            Advance a = run.advance();
            if (a != Advance.RECORD || resumeAfter == null) {
                return a;
            }
            RawBytes k = run.key();
            if (order.compare(k.array(), k.offset(), k.length(), resumeAfter, 0, resumeAfter.length) > 0) {
                resumeAfter = null;
                return a;
            }
        }
    }

    @Override
    public RawBytes key() {
        return run.key();
    }

    @Override
    public RawBytes value() {
        return run.value();
    }

    @Override
    public void close() throws IOException {
        run.close();
    }
}
