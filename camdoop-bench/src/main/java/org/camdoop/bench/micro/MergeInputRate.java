package org.camdoop.bench.micro;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Input the merge benchmarks consumed, which JMH reports beside the operation rate as per-second rates: input records/s
 * and input bytes/s (IFile record bytes, headers included), the figures to set beside the paper's Gbit/s.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.OPERATIONS)
public class MergeInputRate {
    /** Records that entered the merge. */
    public long inputRecords;
    /** Bytes of those records in IFile layout. */
    public long inputBytes;

    /** JMH keeps counter state across iterations; each iteration must count from zero. */
    @Setup(Level.Iteration)
    public void reset() {
        inputRecords = 0;
        inputBytes = 0;
    }
}
