package org.camdoop.bench.shuffle;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.trees.TreeChoice;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code camdoop bench shuffle}: the paper's synthetic-workload experiment (section 5.2, Figure 5) for one mode on an
 * embedded torus. Parses and validates; {@link ShuffleBenchRunner} does the work. Exit status 0 when the output equals
 * the reference, 1 when it does not or the shuffle failed, 2 for bad arguments.
 */
@Command(name = "shuffle", mixinStandardHelpOptions = true,
        description = {
            "Shuffle and reduce of the paper's synthetic workload (random 4-28 character keys, value 1 as a 4-byte int,"
                + " sum combiner = Hadoop's IntSumReducer) on an embedded torus, one map output per server.",
            "",
            "S is output size / intermediate size: 0 means every key on every server (S = 1/N), 1 every key unique.",
            "Links: in camdoop and noagg modes every torus link is shaped to --link-mbps per direction; in direct mode"
                + " the torus is unshaped and each server instead has ONE switch link of --link-mbps per direction"
                + " shared by all its streams (the paper's switch baseline), with no forwarding limit.",
            "Roots: partition p's reduce runs on server p*N/R. 'seconds' runs from starting the shuffles to the last"
                + " root's end and includes the reduce (group equal keys, sum); workload generation and torus start-up"
                + " are excluded and reported apart.",
            "lower_bound_seconds: the busiest root's required inbound bytes over its inbound capacity: camdoop = that"
                + " partition's output fully combined over the other servers' map outputs; noagg and direct = its"
                + " intermediate bytes not on the root; capacity = links from distinct neighbours x rate (6 on 3x3x3),"
                + " or one switch link in direct mode.",
            "link_bytes_total: chunk bytes every vertex stream sent to a vertex on another server (a torus hop on the"
                + " trees; in direct mode one switch crossing per byte). bytes_into_roots: bytes the root streams"
                + " delivered to the reducers. Bytes are IFile record bytes. See docs/benchmarks-shuffle.md.",
            ""})
public final class ShuffleBench implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--shape", defaultValue = "3x3x3", paramLabel = "AxBxC",
            description = "Torus shape (default: ${DEFAULT-VALUE}).")
    String shape;

    @Option(names = "--ratio-s", defaultValue = "0", paramLabel = "S",
            description = "Output ratio S in [0, 1] (default: ${DEFAULT-VALUE}).")
    double ratioS;

    @Option(names = "--reducers", defaultValue = "1", paramLabel = "R",
            description = "Reduce tasks, 1 to the number of servers (default: ${DEFAULT-VALUE}).")
    int reducers;

    @Option(names = "--mode", required = true, paramLabel = "camdoop|noagg|direct", description = "Shuffle mode.")
    String mode;

    @Option(names = "--trees", defaultValue = "six", paramLabel = "six|shortest",
            description = "Six disjoint trees or one shortest-path tree (default: ${DEFAULT-VALUE}).")
    String trees;

    @Option(names = "--mb-per-server", defaultValue = "0.25", paramLabel = "M",
            description = "Map output per server in MB, 10^6 bytes (default: ${DEFAULT-VALUE}).")
    double mbPerServer;

    @Option(names = "--link-mbps", defaultValue = "1.5", paramLabel = "L",
            description = "Link rate per direction in Mbit/s; 0 = unshaped (default: ${DEFAULT-VALUE}).")
    double linkMbps;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "K",
            description = "Workload seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--segment-bytes", defaultValue = "" + ShuffleBenchOptions.DEFAULT_SEGMENT_BYTES, paramLabel = "B",
            description = "Transport segment, the unit each hop stores and forwards (default: ${DEFAULT-VALUE}).")
    int segmentBytes;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    boolean json;

    @Option(names = "--quiet", description = "No progress lines on stderr.")
    boolean quiet;

    @Option(names = "--no-warmup", negatable = false,
            description = "Skip the untimed warm-up: the same mode " + ShuffleBenchRunner.WARMUP_SHUFFLES
                    + " times, 2 MB/server, unshaped, on its own torus (the JIT compiles the merge and combine "
                    + "paths), then one shuffle of another job on the measured torus (its daemons have served one, as "
                    + "daemons in service have).")
    boolean noWarmup;

    @Option(names = "--repeat", defaultValue = "1", paramLabel = "N",
            description = "Measure N shuffles back to back on the same torus, each output checked, and report the one "
                    + "with the median time; all N times are printed too (default: ${DEFAULT-VALUE}).")
    int repeat;

    @Option(names = "--profile", paramLabel = "FILE",
            description = "Record a JFR profile (the JDK's \"profile\" settings) of the timed part only into FILE "
                    + "(e.g. shuffle.jfr); read it with 'jfr print', 'jfr summary' or scripts/jfr-summary. "
                    + "See docs/performance.md.")
    Path profile;

    /** The validated options; throws IllegalArgumentException (exit 2) naming the bad one. */
    ShuffleBenchOptions options() {
        return new ShuffleBenchOptions(TorusShape.parse(shape), ratioS, reducers, ShuffleMode.parse(mode),
                TreeChoice.parse(trees), mbPerServer, linkMbps, seed, segmentBytes);
    }

    /** The --profile file, if given; throws IllegalArgumentException (exit 2) when its directory does not exist. */
    Optional<Path> profileFile() {
        if (profile == null) {
            return Optional.empty();
        }
        Path dir = profile.toAbsolutePath().getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new IllegalArgumentException("--profile: directory of " + profile + " does not exist");
        }
        if (Files.isDirectory(profile)) {
            throw new IllegalArgumentException("--profile: " + profile + " is a directory, give a file name");
        }
        return Optional.of(profile);
    }

    @Override
    public Integer call() throws Exception {
        ShuffleBenchOptions options = options();
        Optional<Path> profileFile = profileFile();
        if (repeat < 1) {
            throw new IllegalArgumentException("--repeat: at least 1, not " + repeat);
        }
        if (repeat > 1 && profileFile.isPresent()) {
            throw new IllegalArgumentException("--profile records one shuffle: give it without --repeat " + repeat);
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ShuffleBenchResult result;
        ShuffleBenchRunner runner;
        try {
            runner = new ShuffleBenchRunner(options, quiet ? Optional.empty() : Optional.of(err), !noWarmup,
                    profileFile, repeat);
            result = runner.run();
        } catch (IllegalStateException e) {
            err.println("camdoop bench shuffle: " + e.getMessage());
            return 1;
        }
        List<Double> times = runner.measuredSeconds();
        if (json) {
            ObjectMapper mapper = new ObjectMapper();
            ObjectNode o = result.toJson(mapper);
            ArrayNode all = o.putArray("repeat_seconds");
            times.forEach(all::add);
            out.println(mapper.writeValueAsString(o));
        } else {
            out.print(result.toText());
            if (times.size() > 1) {
                out.printf(Locale.ROOT, "  %-20s %s s (the median one is reported above)%n", "repeats",
                        times.stream().map(t -> String.format(Locale.ROOT, "%.3f", t))
                                .collect(Collectors.joining(" ")));
            }
        }
        out.flush();
        profileFile.ifPresent(f -> err.println("camdoop bench shuffle: JFR profile of the timed part written to " + f));
        if (!result.correct()) {
            err.println("camdoop bench shuffle: the output differs from the reference (sha256 " + result.outputSha256()
                    + " vs " + result.referenceSha256() + ", records " + result.outputRecords() + " vs "
                    + result.referenceRecords() + ")");
            return 1;
        }
        return 0;
    }
}
