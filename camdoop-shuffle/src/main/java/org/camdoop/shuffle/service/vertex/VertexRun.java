package org.camdoop.shuffle.service.vertex;

import java.util.function.LongSupplier;

/**
 * A vertex's run, saying where the vertex stands, so an executor that knows ({@code VertexExecutor}) can run first
 * the vertex its job waits for; any other executor runs it as a plain task.
 */
public interface VertexRun extends Runnable {

    /**
     * The shuffle the vertex serves (its job, partition and reduce attempt): the shuffles on a daemon take turns, and
     * frontiers are compared only within one. Those of different jobs mean nothing to each other, and a range
     * partitioner (TeraSort's) gives each partition of one job its own part of the key space.
     */
    String shuffle();

    /**
     * How far through the key space the vertex's merge has come: the first eight bytes of the key its merge returned
     * last, an unsigned word (see {@code KWayMerger.frontier}); 0 before its first record, and always for keys the
     * job's comparator orders other than by their bytes. Read when the run is submitted.
     */
    long frontier();

    /** The vertex's distance from its tree's root: of two vertices at the same frontier, the nearer runs first. */
    int depth();

    /** A run of {@code body} that says it serves {@code shuffle} at {@code depth}, where {@code frontier} now is. */
    static VertexRun of(String shuffle, int depth, LongSupplier frontier, Runnable body) {
        return new VertexRun() {
            @Override
            public String shuffle() {
                return shuffle;
            }

            @Override
            public long frontier() {
                return frontier.getAsLong();
            }

            @Override
            public int depth() {
                return depth;
            }

            @Override
            public void run() {
                body.run();
            }
        };
    }
}
