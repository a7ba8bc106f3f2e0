package org.camdoop.bench;

import org.camdoop.bench.hadoop.ClusterBench;
import org.camdoop.bench.hadoop.HadoopBench;
import org.camdoop.bench.micro.MicroBenchCommand;
import org.camdoop.bench.paper.PaperBench;
import org.camdoop.bench.shuffle.ShuffleBench;
import picocli.CommandLine.Command;

/** {@code camdoop bench ...}: the parent of the benchmarks. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Benchmarks: each prints figures measured side by side in one run, and their ratios.",
        subcommands = {TransportBench.class, ShuffleBench.class, org.camdoop.bench.shuffle.FailureBench.class, PaperBench.class, HadoopBench.class, ClusterBench.class,
            MicroBenchCommand.class})
public final class BenchCommand {
}
