package org.camdoop.bench.micro;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** Whole-frame bytes (length prefix, header and payload) the codec benchmarks handled, reported by JMH as bytes/s. */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.OPERATIONS)
public class FrameBytesRate {
    /** Bytes of the frames encoded or decoded. */
    public long frameBytes;

    /** JMH keeps counter state across iterations; each iteration must count from zero. */
    @Setup(Level.Iteration)
    public void reset() {
        frameBytes = 0;
    }
}
