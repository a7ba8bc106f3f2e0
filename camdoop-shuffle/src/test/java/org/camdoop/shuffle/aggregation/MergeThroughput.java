package org.camdoop.shuffle.aggregation;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A rough, JMH-free throughput probe (not a test; run its main with the test classpath): merge (and combine) of
 * Text/IntWritable runs, binary heap against loser tree, side by side in one JVM. Prints records per second.
 */
public final class MergeThroughput {
    private MergeThroughput() {}

    public static void main(String[] args) throws IOException {
        int inputs = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        int perInput = args.length > 1 ? Integer.parseInt(args[1]) : 150_000;
        JobAggregationSpec combining = JobAggregationSpec.fromJob(TestJobs.textIntOldCombiner());
        List<byte[]> data = new ArrayList<>();
        for (List<Records.Raw> input : Workloads.sRatio(new Random(1), inputs, perInput, 0.5)) {
            data.add(Records.layout(Records.sorted(input, combining.sortComparator())));
        }
        for (int round = 0; round < 3; round++) {
            for (MergeStrategy strategy : MergeStrategy.values()) {
                report("merge only   " + strategy, combining.withoutCombiner(), data, strategy);
                report("merge+combine " + strategy, combining, data, strategy);
            }
        }
    }

    private static void report(String label, JobAggregationSpec spec, List<byte[]> data, MergeStrategy strategy)
            throws IOException {
        List<SortedRun> runs = new ArrayList<>();
        for (byte[] d : data) {
            runs.add(new ByteArrayRun(d));
        }
        long start = System.nanoTime();
        try (AggregationPipeline p = AggregationPipeline.open(spec, runs, strategy, (chunk, length) -> { })) {
            while (p.pump(1 << 20) != PumpOutcome.FINISHED) {
                // keep pumping
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf("%-28s %,12.0f records in/s  (%s)%n", label, p.counters().recordsIn() / seconds,
                    p.counters());
        }
    }
}
