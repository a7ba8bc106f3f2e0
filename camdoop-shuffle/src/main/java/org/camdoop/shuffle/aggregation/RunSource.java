package org.camdoop.shuffle.aggregation;

import java.io.IOException;

/**
 * Something that can open independent cursors over the same sorted records (a map output partition, a byte array).
 * The striper opens one cursor per stripe so the trees advance independently of each other.
 */
@FunctionalInterface
public interface RunSource {
    /** Opens a fresh cursor positioned before the first record. */
    SortedRun open() throws IOException;
}
