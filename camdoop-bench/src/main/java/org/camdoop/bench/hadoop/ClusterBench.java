package org.camdoop.bench.hadoop;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code camdoop bench cluster}: the unmodified examples wordcount (on a Zipf corpus), sort and terasort, each with
 * the stock shuffle and with Camdoop, on the testbed (a real Hadoop cluster in network namespaces, shaped links),
 * side by side in one run. Parses and validates; {@link ClusterBenchRunner} runs the jobs. Exit status 0 when every
 * output matched, 1 when a program failed, a Camdoop job fell back or the outputs differ, 2 for bad arguments.
 */
@Command(name = "cluster", mixinStandardHelpOptions = true,
        description = {
            "End to end against the stock Hadoop shuffle on the testbed that is up (scripts/camdoop testbed up): a"
                + " Zipf corpus, then wordcount with the stock shuffle and with Camdoop; randomwriter, then sort with"
                + " each; teragen, then terasort with each. Outputs must match and Camdoop must not fall back.",
            "Per job: job and shuffle+reduce time (JobHistory), bytes on the wire from the kernel's interface"
                + " counters (torus links and switch ports), reduce-side disk bytes, CPU of the machine, the"
                + " network bound; ratios camdoop/stock. See docs/benchmarks-cluster.md.",
            ""})
public final class ClusterBench implements Callable<Integer> {

    /**
     * How big a run is.
     *
     * @param wordcountMb the Zipf corpus, MiB
     * @param vocabulary its distinct words
     * @param zipf its Zipf exponent
     * @param sortMb randomwriter output for sort, MiB
     * @param terasortMb teragen output for terasort, MiB
     * @param maps input files of each job (one map each)
     * @param reduces reduces of each job
     * @param servers torus servers of the testbed
     */
    record Sizes(int wordcountMb, int vocabulary, double zipf, int sortMb, int terasortMb, int maps, int reduces,
            int servers) {
        Sizes {
            check("--wordcount-mb", wordcountMb, 1, 4096);
            check("--vocabulary", vocabulary, 1, 50_000_000);
            check("--sort-mb", sortMb, 1, 4096);
            check("--terasort-mb", terasortMb, 1, 4096);
            check("--maps", maps, 1, 48);
            check("--reduces", reduces, 1, 48);
            if (!(zipf > 0 && zipf < 4)) {
                throw new IllegalArgumentException("--zipf must be above 0 and below 4, got " + zipf);
            }
        }

        private static void check(String option, int value, int min, int max) {
            if (value < min || value > max) {
                throw new IllegalArgumentException(option + " must be from " + min + " to " + max + ", got " + value);
            }
        }
    }

    @Spec
    CommandSpec spec;

    @Option(names = "--wordcount-mb", paramLabel = "MB", defaultValue = "256",
            description = "Zipf text corpus for wordcount, MiB (default ${DEFAULT-VALUE}).")
    int wordcountMb;

    @Option(names = "--vocabulary", paramLabel = "N", defaultValue = "1000000",
            description = "Distinct words of the corpus (default ${DEFAULT-VALUE}).")
    int vocabulary;

    @Option(names = "--zipf", paramLabel = "S", defaultValue = "0.99",
            description = "Zipf exponent of the word popularity (default ${DEFAULT-VALUE}).")
    double zipf;

    @Option(names = "--sort-mb", paramLabel = "MB", defaultValue = "128",
            description = "randomwriter output for sort, MiB (default ${DEFAULT-VALUE}).")
    int sortMb;

    @Option(names = "--terasort-mb", paramLabel = "MB", defaultValue = "128",
            description = "teragen output for terasort, MiB (default ${DEFAULT-VALUE}).")
    int terasortMb;

    @Option(names = "--maps", paramLabel = "N", defaultValue = "9",
            description = "Input files = maps of each job (default ${DEFAULT-VALUE}, one per NodeManager host).")
    int maps;

    @Option(names = "--reduces", paramLabel = "N", defaultValue = "3",
            description = "Reduces of each job (default ${DEFAULT-VALUE}).")
    int reduces;

    @Option(names = "--testbed", paramLabel = "SCRIPT", required = true,
            description = "The distribution's sbin/camdoop-testbed.sh (scripts/camdoop passes it).")
    Path testbed;

    @Option(names = "--testbed-dir", paramLabel = "DIR",
            description = "The testbed's directory (default: $CAMDOOP_TESTBED_DIR, else /tmp/camdoop-testbed).")
    Path testbedDir;

    @Option(names = "--work", paramLabel = "DIR",
            description = "Inputs, outputs and programs.log; every testbed host must see it (default:"
                    + " camdoop-bench-cluster-PID in the temporary directory).")
    Path work;

    @Option(names = "--out", paramLabel = "DIR", description = "Also write the rows as DIR/cluster-bench.csv.")
    Path out;

    @Override
    public Integer call() throws Exception {
        Path dir = testbedDir != null ? testbedDir : Path.of(System.getenv().getOrDefault("CAMDOOP_TESTBED_DIR",
                "/tmp/camdoop-testbed"));
        if (!Files.isRegularFile(dir.resolve("topology"))) {
            throw new IllegalArgumentException("no testbed in " + dir + ": run scripts/camdoop testbed up first");
        }
        int servers = (int) Files.readAllLines(dir.resolve("topology")).stream()
                .filter(l -> !l.isBlank() && !l.startsWith("shape") && !l.startsWith("#")).count();
        Sizes sizes = new Sizes(wordcountMb, vocabulary, zipf, sortMb, terasortMb, maps, reduces, servers);
        Path w = work != null ? work : Path.of(System.getProperty("java.io.tmpdir"),
                "camdoop-bench-cluster-" + ProcessHandle.current().pid());
        ClusterReport report = new ClusterBenchRunner(sizes, testbed, dir, w, System.err).run();
        if (out != null) {
            Files.createDirectories(out);
            Files.writeString(out.resolve("cluster-bench.csv"), report.csv());
        }
        PrintWriter pw = spec.commandLine().getOut();
        pw.print(report.table());
        pw.flush();
        return 0;
    }
}
