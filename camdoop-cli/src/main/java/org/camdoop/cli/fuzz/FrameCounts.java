package org.camdoop.cli.fuzz;

import java.util.concurrent.atomic.LongAdder;

/** What the fuzzers sent and what came back, counted from several threads. */
final class FrameCounts {
    final LongAdder torusFrames = new LongAdder();
    final LongAdder torusConnections = new LongAdder();
    final LongAdder torusErrorsBack = new LongAdder();
    final LongAdder localFrames = new LongAdder();
    final LongAdder localConnections = new LongAdder();
    final LongAdder localRefusals = new LongAdder();
    final LongAdder localOther = new LongAdder();
    /** Replies that broke the protocol (a daemon must never send one): the run fails if any. */
    final LongAdder malformedReplies = new LongAdder();

    long total() {
        return torusFrames.sum() + localFrames.sum();
    }
}
