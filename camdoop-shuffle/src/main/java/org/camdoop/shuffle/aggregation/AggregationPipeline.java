package org.camdoop.shuffle.aggregation;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * What one vertex runs for one (job, partition, tree): merge its inputs (local stripe and child streams), combine on
 * path when the job has a combiner, and pack the result into chunks for the parent. The caller drives it with
 * {@link #pump(int)} whenever an input delivered or the parent granted credit, and marks the input named by
 * {@link #blockedInput()} urgent when the pump reports {@link PumpOutcome#BLOCKED}.
 *
 * <p>Single-threaded: every input, the sink and this object belong to the thread driving the vertex.
 */
public final class AggregationPipeline implements AutoCloseable {
    private enum State { RUNNING, FINISHED }

    private final KWayMerger merger;
    private final SortedRun output;
    private final RecordChunkWriter writer;
    private final AggregationCounters counters = new AggregationCounters();
    private State state = State.RUNNING;

    private AggregationPipeline(JobAggregationSpec spec, List<? extends SortedRun> inputs, MergeStrategy strategy,
            ChunkSink sink) throws IOException {
        this.merger = new KWayMerger(inputs, spec.sortComparator(), strategy, counters);
        this.output = combined(merger, spec);
        this.writer = new RecordChunkWriter(spec.chunkBytes(), sink, counters);
    }

    /** The merge combined on path: by the summing fast path where it applies, else in batches; as it is without one. */
    static SortedRun combined(SortedRun merged, JobAggregationSpec spec) throws IOException {
        if (spec.combiner().isEmpty()) {
            return merged;
        }
        Optional<SummingCombiner> summing = spec.combiner().get().summing(spec);
        return summing.isPresent() ? new SummingRun(merged, spec, summing.get()) : new CombiningRun(merged, spec);
    }

    /** A pipeline over {@code inputs} (input i is what {@link #blockedInput()} reports as i) writing to {@code sink}. */
    public static AggregationPipeline open(JobAggregationSpec spec, List<? extends SortedRun> inputs, ChunkSink sink)
            throws IOException {
        return new AggregationPipeline(spec, inputs, MergeStrategy.LOSER_TREE, sink);
    }

    /** As {@link #open(JobAggregationSpec, List, ChunkSink)} with a chosen merge strategy. */
    public static AggregationPipeline open(JobAggregationSpec spec, List<? extends SortedRun> inputs,
            MergeStrategy strategy, ChunkSink sink) throws IOException {
        return new AggregationPipeline(spec, inputs, strategy, sink);
    }

    /**
     * Moves up to {@code maxRecords} output records to the sink. On {@link PumpOutcome#BLOCKED} the partly filled chunk
     * is handed over too, so the parent can progress while this vertex waits.
     */
    public PumpOutcome pump(int maxRecords) throws IOException {
        return pump(maxRecords, true);
    }

    /**
     * As {@link #pump(int)}; with {@code flushWhenBlocked} false a blocked pump keeps its partly filled chunk, for
     * {@link #flushPartial()} or the next records to complete.
     */
    public PumpOutcome pump(int maxRecords, boolean flushWhenBlocked) throws IOException {
        if (state == State.FINISHED) {
            return PumpOutcome.FINISHED;
        }
        for (int n = 0; n < maxRecords; n++) {
            switch (output.advance()) {
                case RECORD:
                    writer.append(output.key(), output.value());
                    break;
                case NO_DATA_YET:
                    if (flushWhenBlocked) {
                        writer.flush();
                    }
                    return PumpOutcome.BLOCKED;
                case END:
                    writer.flush();
                    state = State.FINISHED;
                    return PumpOutcome.FINISHED;
                default:
                    throw new AssertionError();
            }
        }
        return PumpOutcome.BUDGET_USED;
    }

    /** Hands the partly filled chunk to the sink now (nothing if it is empty). */
    public void flushPartial() throws IOException {
        writer.flush();
    }

    /** The input the pipeline waits for after {@link PumpOutcome#BLOCKED}; -1 otherwise. */
    public int blockedInput() {
        return merger.blockedInput();
    }

    /** How far through the key space the merge has come ({@link KWayMerger#frontier}). */
    public long frontier() {
        return merger.frontier();
    }

    public AggregationCounters counters() {
        return counters;
    }

    /** Closes every input (files, decompressors). */
    @Override
    public void close() throws IOException {
        state = State.FINISHED;
        output.close();
    }
}
