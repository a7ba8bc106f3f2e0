package org.camdoop.examples.bench;

import org.camdoop.examples.bench.hadoop.HadoopBench;
import org.camdoop.examples.bench.shuffle.ShuffleBench;
import picocli.CommandLine.Command;

/** {@code camdoop bench ...}: the parent of the benchmarks. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Benchmarks: each prints figures measured side by side in one run, and their ratios.",
        subcommands = {TransportBench.class, ShuffleBench.class, HadoopBench.class})
public final class BenchCommand {
}
