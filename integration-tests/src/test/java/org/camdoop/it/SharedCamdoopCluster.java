package org.camdoop.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.stream.Stream;
import org.camdoop.minicluster.ExamplesProcess;
import org.camdoop.minicluster.MiniCluster;
import org.camdoop.minicluster.MiniClusterResult;
import org.camdoop.torus.topology.TorusShape;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One Camdoop mini cluster that the test classes' jobs share, several at a time: three NodeManagers, each hosting a
 * daemon in its {@code CamdoopShuffleHandler}, on a 3x3x3 torus. A stock job is a job of the same cluster without the
 * two job keys, as on an operator's cluster where Camdoop is installed and a job has not opted in: its reduces fetch
 * over HTTP from the same handlers, Hadoop's own shuffle. (A cluster per job cost each job about 15 s of start and
 * stop, and the jobs ran one after another.)
 */
final class SharedCamdoopCluster implements AutoCloseable {

    /**
     * The tests' task JVMs stop at the C1 compiler and use the serial collector: their jobs move a few megabytes, and
     * C2's compilations and a parallel collector's threads cost more CPU than they save, on 2 cores shared by several
     * jobs at once. A map's or reduce's heap stays Hadoop's share of its container; the ApplicationMaster's options
     * replace Hadoop's default {@code -Xmx1024m}, so they name a heap that fits its 512 MB container.
     */
    private static final Map<String, String> QUICK_TASK_JVMS = Map.of(
            "yarn.app.mapreduce.am.command-opts", "-Xmx400m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC",
            "mapreduce.map.java.opts", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC",
            "mapreduce.reduce.java.opts", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC");

    /** The {@code @Order} of the classes that share the cluster: before every other class of the run. */
    static final int CLASS_ORDER = 1;

    private final MiniCluster cluster;
    private final Path work;
    private final Path stockConf;
    private final Path camdoopConf;
    /** A client configuration for the LocalJobRunner: Hadoop's defaults, its scratch space under {@link #work}. */
    private final Path localConf;

    private SharedCamdoopCluster(MiniCluster cluster, Path work, Path stockConf, Path camdoopConf) throws IOException {
        this.cluster = cluster;
        this.work = work;
        this.stockConf = stockConf;
        this.camdoopConf = camdoopConf;
        this.localConf = Files.createDirectories(work.resolve("client-local"));
        org.apache.hadoop.conf.Configuration local = new org.apache.hadoop.conf.Configuration(false);
        local.set("mapreduce.framework.name", "local");
        local.set("fs.defaultFS", "file:///");
        local.set("hadoop.tmp.dir", work.resolve("local-runner").toString());
        // The child JVM's heap is small (ExamplesProcess), and the references' inputs are too: a map's sort buffer
        // of 16 MB, not 100.
        local.setInt("mapreduce.task.io.sort.mb", 16);
        try (java.io.OutputStream out = Files.newOutputStream(localConf.resolve("core-site.xml"))) {
            local.writeXml(out);
        }
    }

    static SharedCamdoopCluster start(Path work) throws IOException, InterruptedException {
        MiniCluster cluster = MiniCluster.start(3, TorusShape.parse("3x3x3"), true, work, Optional.empty(), System.err,
                "camdoop minicluster");
        try {
            return new SharedCamdoopCluster(cluster, work,
                    cluster.writeClientConf(work.resolve("client-stock"), false, QUICK_TASK_JVMS),
                    cluster.writeClientConf(work.resolve("client-camdoop"), true, QUICK_TASK_JVMS));
        } catch (IOException | RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /** Runs an unmodified examples program with Hadoop's own shuffle ({@code stock}) or through Camdoop. */
    MiniClusterResult run(boolean stock, List<String> program) throws IOException, InterruptedException {
        return cluster.runProgram(stock ? stockConf : camdoopConf, program, System.out);
    }

    /** The two runs of one job, stock and Camdoop. */
    record StockAndCamdoop(MiniClusterResult stock, MiniClusterResult camdoop) {
    }

    /**
     * Runs {@code stockProgram} on the stock shuffle and {@code camdoopProgram} through Camdoop at the same time. The
     * stock run is always waited for (and its program stopped if this thread is interrupted, e.g. by a timeout).
     */
    StockAndCamdoop runSideBySide(List<String> stockProgram, List<String> camdoopProgram) throws Exception {
        return besideCamdoop(() -> run(true, stockProgram), camdoopProgram);
    }

    /**
     * As {@link #runSideBySide}, but the stock run, the job's reference output, runs in Hadoop's LocalJobRunner (its
     * stock shuffle, with the local fetcher) in one child JVM: a job on the cluster costs a client, an
     * ApplicationMaster and a JVM per task on the 2 cores the Camdoop job needs. The stock shuffle on the cluster is
     * checked by CamdoopWordCountTest and by the fallback tests. Its result has no counters.
     */
    StockAndCamdoop runBesideLocalStock(List<String> stockProgram, List<String> camdoopProgram) throws Exception {
        return besideCamdoop(() -> {
            ExamplesProcess.Outcome local = cluster.runExamples(localConf, stockProgram, System.out, System.err);
            return new MiniClusterResult(local.exit(), local.seconds(), Map.of(), local.jobs());
        }, camdoopProgram);
    }

    private StockAndCamdoop besideCamdoop(java.util.concurrent.Callable<MiniClusterResult> stockRun,
            List<String> camdoopProgram) throws Exception {
        FutureTask<MiniClusterResult> stock = new FutureTask<>(stockRun);
        Thread stockThread = new Thread(stock, "stock-job");
        stockThread.start();
        MiniClusterResult camdoop;
        try {
            camdoop = run(false, camdoopProgram);
        } finally {
            try {
                stockThread.join();
            } catch (InterruptedException e) {
                stockThread.interrupt();
                throw e;
            }
        }
        try {
            return new StockAndCamdoop(stock.get(), camdoop);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    /** Whether a task log (syslog or stderr of any container) of the run's last job contains {@code text}. */
    boolean taskLogsContain(MiniClusterResult run, String text) throws IOException {
        String job = run.jobs().get(run.jobs().size() - 1);
        String application = "application_" + job.substring("job_".length());
        try (Stream<Path> files = Files.walk(work.resolve("cluster"))) {
            return files.filter(p -> p.toString().contains(application))
                    .filter(p -> p.getFileName().toString().startsWith("stderr")
                            || p.getFileName().toString().startsWith("syslog"))
                    .anyMatch(p -> {
                        try {
                            return Files.readString(p).contains(text);
                        } catch (IOException e) {
                            return false;
                        }
                    });
        }
    }

    /** The client configuration directory of Camdoop jobs (the cluster's yarn-site.xml is in it). */
    Path camdoopClientConf() {
        return camdoopConf;
    }

    @Override
    public void close() throws InterruptedException {
        cluster.close();
    }

    /**
     * One cluster for every test class of the JVM that registers this extension (a static field with
     * {@code @RegisterExtension}): started before the first such class and stopped before the first class that does
     * not share it ({@link StoppedBeforeOtherClasses}) or after the run. A cluster per class cost each class a start
     * and a stop (about 60 s of CI time for three classes). Classes run one at a time (junit-platform.properties), the
     * cluster's first (their {@code @Order}), so only one class's jobs use it at once. Its files go to a directory of
     * its own, deleted as far as it can be: the cluster's stop goes on in the background (see MiniCluster's close),
     * so a file it still writes must not fail the run.
     */
    static final class PerRun implements BeforeAllCallback {
        private Running running;

        @Override
        public void beforeAll(ExtensionContext context) {
            running = store(context).getOrComputeIfAbsent(Running.class, key -> {
                try {
                    return Running.start();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted starting the shared cluster", e);
                }
            }, Running.class);
        }

        SharedCamdoopCluster cluster() {
            return running.cluster();
        }
    }

    /**
     * Stops the run's shared cluster, if one runs, before any class that does not share it: registered for every
     * class (META-INF/services, junit-platform.properties). Such a class may start Hadoop daemons of its own
     * (ShadedShuffleHandlerTest), and two ResourceManagers cannot share a JVM: each identifies itself by a static
     * cluster timestamp, the newer one resets it, and the older cluster's NodeManagers then refuse every container
     * ("allocated by a previous RM"). Nor should an idle cluster take CPU from the testbed's classes. Since the
     * cluster's classes run first, it starts once.
     */
    public static final class StoppedBeforeOtherClasses implements BeforeAllCallback {
        @Override
        public void beforeAll(ExtensionContext context) throws Exception {
            boolean shares = java.util.Arrays.stream(context.getRequiredTestClass().getDeclaredFields())
                    .anyMatch(f -> f.getType() == PerRun.class);
            Running running = shares ? null : store(context).remove(Running.class, Running.class);
            if (running != null) {
                running.close();
            }
        }
    }

    private static ExtensionContext.Store store(ExtensionContext context) {
        return context.getRoot().getStore(ExtensionContext.Namespace.create(SharedCamdoopCluster.class));
    }

    /** The run's cluster and its directory; JUnit closes it (an AutoCloseable in the root store) after the run. */
    private record Running(Path work, SharedCamdoopCluster cluster) implements AutoCloseable {

        static Running start() throws IOException, InterruptedException {
            Path work = Files.createTempDirectory("camdoop-it-cluster-");
            return new Running(work, SharedCamdoopCluster.start(work));
        }

        @Override
        public void close() throws InterruptedException {
            cluster.close();
            // The cluster's stop goes on in the background (MiniCluster's close): a file it still writes or removes
            // must not fail the class that happens to run next.
            try (Stream<Path> paths = Files.walk(work)) {
                paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException | java.io.UncheckedIOException e) {
                System.err.println("SharedCamdoopCluster: could not remove all of " + work + ": " + e);
            }
        }
    }
}
