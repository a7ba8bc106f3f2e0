package org.camdoop.examples.bench;

import org.camdoop.examples.bench.hadoop.HadoopBench;
import org.camdoop.examples.bench.micro.MicroBenchCommand;
import org.camdoop.examples.bench.paper.PaperBench;
import org.camdoop.examples.bench.shuffle.ShuffleBench;
import picocli.CommandLine.Command;

/** {@code camdoop bench ...}: the parent of the benchmarks. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Benchmarks: each prints figures measured side by side in one run, and their ratios.",
        subcommands = {TransportBench.class, ShuffleBench.class, PaperBench.class, HadoopBench.class,
            MicroBenchCommand.class})
public final class BenchCommand {
}
