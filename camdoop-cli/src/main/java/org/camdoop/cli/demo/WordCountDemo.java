package org.camdoop.cli.demo;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.camdoop.minicluster.MiniClusterOptions;
import org.camdoop.minicluster.MiniClusterResult;
import org.camdoop.minicluster.MiniClusterRunner;
import org.camdoop.workload.KeyModel;
import org.camdoop.workload.TextCorpus;
import org.camdoop.torus.topology.TorusShape;

/**
 * Generates a Zipf text corpus, runs the unmodified examples WordCount on it twice on a fresh mini cluster (3
 * NodeManagers, a 3x3x3 torus), first with Hadoop's shuffle and then with Camdoop, and compares the part files.
 */
public final class WordCountDemo {

    /** Corpus files: one map task each, so each NodeManager gets map output to shuffle. */
    static final int CORPUS_FILES = 3;
    /** Distinct words; with Zipf skew many repeat, which is what gives a combiner work. */
    static final int VOCABULARY = 100_000;
    static final long SEED = 2012;
    private static final int NODE_MANAGERS = 3;
    private static final String SHAPE = "3x3x3";

    private final Path work;
    private final long corpusBytes;
    private final Optional<Path> auxServiceJar;
    private final PrintStream progress;
    private final PrintStream programs;

    /**
     * @param work directory for the corpus, both outputs and both clusters' files
     * @param corpusBytes size of the corpus to generate
     * @param auxServiceJar the shaded camdoop-hadoop jar for the NodeManagers; empty: this JVM's class path
     * @param progress where the demo's progress lines go (stderr, so stdout carries only the result)
     * @param programs where the clusters' progress lines and the examples programs' own output go (a log file)
     */
    public WordCountDemo(Path work, long corpusBytes, Optional<Path> auxServiceJar, PrintStream progress,
            PrintStream programs) {
        this.work = work;
        this.corpusBytes = corpusBytes;
        this.auxServiceJar = auxServiceJar;
        this.progress = progress;
        this.programs = programs;
    }

    /** Runs both jobs; throws {@link IllegalStateException} naming the job that failed. */
    public DemoSummary run() throws IOException, InterruptedException {
        Path corpus = work.resolve("corpus");
        progress.printf("camdoop demo: generating a %d MB text corpus in %s...%n", corpusBytes >> 20, corpus);
        TextCorpus.Written written = TextCorpus.write(
                new TextCorpus.Spec(CORPUS_FILES, corpusBytes, new KeyModel.Zipf(VOCABULARY), SEED), corpus);

        progress.println("camdoop demo: running wordcount with the stock shuffle...");
        Path stockOut = work.resolve("out-stock");
        MiniClusterResult stock = wordcount(true, corpus, stockOut);
        requireSucceeded("stock", stock);

        progress.println("camdoop demo: running wordcount with Camdoop...");
        Path camdoopOut = work.resolve("out-camdoop");
        MiniClusterResult camdoop = wordcount(false, corpus, camdoopOut);
        requireSucceeded("Camdoop", camdoop);

        progress.println("camdoop demo: comparing the outputs...");
        boolean identical = PartFiles.identical(stockOut, camdoopOut);
        return new DemoSummary(written.bytes(), DemoRow.stock(stock), DemoRow.camdoop(camdoop), identical);
    }

    private MiniClusterResult wordcount(boolean stock, Path in, Path out) throws IOException, InterruptedException {
        Path clusterDir = work.resolve(stock ? "cluster-stock" : "cluster-camdoop");
        MiniClusterOptions options = new MiniClusterOptions(NODE_MANAGERS, TorusShape.parse(SHAPE), stock, clusterDir,
                List.of("wordcount", in.toString(), out.toString()), auxServiceJar);
        return new MiniClusterRunner(options, programs, programs).run();
    }

    private static void requireSucceeded(String which, MiniClusterResult result) {
        if (result.exit() != 0) {
            throw new IllegalStateException("the " + which + " wordcount failed with exit status " + result.exit()
                    + " (see the programs' log)");
        }
    }

    /** Deletes {@code dir} and everything under it. */
    public static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
