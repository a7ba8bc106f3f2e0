package org.camdoop.bench.micro;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.camdoop.shuffle.aggregation.AggregationCounters;
import org.camdoop.shuffle.aggregation.AggregationPipeline;
import org.camdoop.shuffle.aggregation.ByteArrayRun;
import org.camdoop.shuffle.aggregation.ChunkSink;
import org.camdoop.shuffle.aggregation.JobAggregationSpec;
import org.camdoop.shuffle.aggregation.MergeStrategy;
import org.camdoop.shuffle.aggregation.PumpOutcome;
import org.camdoop.shuffle.aggregation.SortedRun;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * One vertex's merge on one core: a k-way merge (loser tree, Hadoop's {@code Text.Comparator}) of {@code fanIn} sorted
 * in-memory runs of Text/IntWritable records, through the engine's {@link AggregationPipeline} exactly as a vertex
 * runs it, with Hadoop's {@code IntSumReducer} combining on path ({@link #mergeCombine}) or without a combiner
 * ({@link #mergeOnly}). The output chunks go to a sink that only counts them (no network). One operation merges
 * {@value #TOTAL_RECORDS} input records (about 1.2 MB, 23 bytes each on average); {@link MergeInputRate} turns that into records/s and bytes/s.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class MergeCombineBenchmark {
    /**
     * Input records per operation, over all runs: divisible by both default fan-ins, and small enough that one
     * operation takes tens of milliseconds, so even the quick run's warm-up repeats it many times.
     */
    static final int TOTAL_RECORDS = 54_000;

    /** Runs merged at once: 6 is a vertex with six children, 27 a root merging a 3x3x3 torus directly. */
    @Param({"6", "27"})
    public int fanIn;

    /** The paper's S: fraction of each run's keys unique to it (0 = every key in every run, 1 = all unique). */
    @Param({"0", "1"})
    public double ratioS;

    private JobAggregationSpec combining;
    private JobAggregationSpec mergeOnly;
    private MergeInputs inputs;
    private final CountingSink sink = new CountingSink();

    /** Builds the runs once per trial; every operation merges the same bytes. */
    @Setup
    public void setUp() {
        combining = WordCountJob.spec();
        mergeOnly = combining.withoutCombiner();
        inputs = MergeInputs.generate(fanIn, TOTAL_RECORDS / fanIn, ratioS, 1, combining.sortComparator());
    }

    /** Merge and combine; returns the records sent towards the parent. */
    @Benchmark
    public long mergeCombine(MergeInputRate rate) throws IOException {
        return run(combining, sink, rate).recordsOut();
    }

    /** Merge only (the noagg mode); returns the records sent towards the parent. */
    @Benchmark
    public long mergeOnly(MergeInputRate rate) throws IOException {
        return run(mergeOnly, sink, rate).recordsOut();
    }

    /** The combining job (for tests). */
    JobAggregationSpec combiningSpec() {
        return combining;
    }

    /** The merge-only job (for tests). */
    JobAggregationSpec mergeOnlySpec() {
        return mergeOnly;
    }

    MergeInputs inputs() {
        return inputs;
    }

    /** Merges every run into {@code out} until the pipeline finishes; counts the input in {@code rate}. */
    AggregationCounters run(JobAggregationSpec spec, ChunkSink out, MergeInputRate rate) throws IOException {
        List<SortedRun> runs = new ArrayList<>(inputs.runs().size());
        for (byte[] run : inputs.runs()) {
            runs.add(new ByteArrayRun(run));
        }
        try (AggregationPipeline pipeline = AggregationPipeline.open(spec, runs, MergeStrategy.LOSER_TREE, out)) {
            while (pipeline.pump(Integer.MAX_VALUE) != PumpOutcome.FINISHED) {
                // in-memory runs never block; BUDGET_USED cannot happen with this budget either
            }
            AggregationCounters counters = pipeline.counters();
            rate.inputRecords += counters.recordsIn();
            rate.inputBytes += counters.bytesIn();
            return counters;
        }
    }

    /** Stands in for the link: counts the chunk bytes so the output is observed, keeps nothing. */
    private static final class CountingSink implements ChunkSink {
        long bytes;

        @Override
        public void accept(byte[] chunk, int length) {
            bytes += length;
        }
    }
}
