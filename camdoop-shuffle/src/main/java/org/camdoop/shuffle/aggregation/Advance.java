package org.camdoop.shuffle.aggregation;

/**
 * The outcome of {@link SortedRun#advance()}. "No data yet" is distinct from "ended" because an on-path vertex must
 * wait for a temporarily empty input rather than treat it as finished.
 */
public enum Advance {
    /** A record is positioned: {@link SortedRun#key()} and {@link SortedRun#value()} are valid until the next advance. */
    RECORD,
    /** The run has not ended but has no record available now; call advance again once more data arrived. */
    NO_DATA_YET,
    /** The run has ended; every later advance also returns END. */
    END
}
