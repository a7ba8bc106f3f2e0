package org.camdoop.bench.shuffle;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.camdoop.shuffle.daemon.EmbeddedTorus;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.service.RootStream;
import org.camdoop.shuffle.service.vertex.LocalMapOutput;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.Port;
import org.camdoop.torus.transport.TransportConfig;
import org.camdoop.torus.transport.TransportListener;
import org.camdoop.workload.OutputDigest;
import org.camdoop.workload.ReferenceResult;
import org.camdoop.workload.ServerMapOutput;
import org.camdoop.workload.SyntheticWorkload;
import org.camdoop.workload.WorkloadManifest;
import org.camdoop.workload.WorkloadSpec;

/**
 * The paper's Figure 9 on an embedded torus: one server crashes ({@link EmbeddedTorus#crash}, as {@code kill -9}) at
 * a fraction of the time T the same shuffle takes without a failure, and the shuffle and reduce time is reported
 * against T. As in the paper the failing server holds no map output (26 map outputs on 27 servers), so the figure
 * measures recovery, not re-running maps. A crashed root takes its reduce task with it: the runner then plays
 * Hadoop's ApplicationMaster and starts the next reduce attempt on the old root's +x neighbour as soon as that
 * server's daemon declared the root failed (Hadoop itself would notice later: the task heartbeat timeout).
 * Not thread-safe: one run per instance.
 */
public final class FailureBenchRunner {

    /** What failed, as in the paper's Figure 9. */
    public enum Victim {
        ROOT, NEIGHBOUR, RANDOM;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * One point: the run with a failure against the same shuffle without one.
     *
     * @param boundSeconds the median of the runs' {@link RecoveryBound}s; NaN at R &gt; 1 or on unshaped links
     */
    public record Row(Victim failed, double at, int reducers, Coord victim, double baselineSeconds, double seconds,
            double boundSeconds, int restarts, int repairs, boolean correct) {
        public double stretch() {
            return seconds / baselineSeconds;
        }

        /** The least stretch the network allows this point's runs (see {@link RecoveryBound}); NaN when unknown. */
        public double boundStretch() {
            return boundSeconds / baselineSeconds;
        }
    }

    private static final long JOB_KEY = 0x1700000000000009L;
    private static final Duration STALL_LIMIT = Duration.ofMinutes(2);

    private final ShuffleBenchOptions options;
    private final long failureTimeoutMs;
    private final Optional<PrintWriter> progress;
    private final int runs;
    /** Each daemon's transport buffer budget; 0: the transport's default. */
    private long bufferBudgetBytes;

    /**
     * @param options the shuffle (mode, S, size, links; reducers are set per point)
     * @param runs    runs per point: T and each failure time are the medians of this many runs
     */
    public FailureBenchRunner(ShuffleBenchOptions options, long failureTimeoutMs, int runs,
            Optional<PrintWriter> progress) {
        if (runs < 1) {
            throw new IllegalArgumentException("--runs must be >= 1, got " + runs);
        }
        this.options = options;
        this.failureTimeoutMs = failureTimeoutMs;
        this.runs = runs;
        this.progress = progress;
    }

    /** Sets each daemon's buffer budget ({@code camdoop.transport.buffer.budget.bytes}); 0 keeps the default. */
    public FailureBenchRunner withBufferBudget(long bytes) {
        this.bufferBudgetBytes = bytes;
        return this;
    }

    /** Every point: the baseline of each (reducers, victim), then one run per failure time. */
    public List<Row> run(List<Integer> reducerCounts, List<Victim> victims, List<Double> ats)
            throws IOException, InterruptedException {
        ShuffleBenchRunner.warmUp(options);
        List<Row> rows = new ArrayList<>();
        for (int reducers : reducerCounts) {
            ShuffleBenchOptions o = new ShuffleBenchOptions(options.shape(), options.ratioS(), reducers,
                    options.mode(), options.trees(), options.mbPerServer(), options.linkMbps(), options.seed(),
                    options.segmentBytes());
            Path dir = Files.createTempDirectory("camdoop-bench-failure-");
            try {
                SyntheticWorkload workload = SyntheticWorkload.generate(WorkloadSpec.sRatio(o.servers(), o.ratioS(),
                        o.bytesPerServer(), reducers, o.seed()), dir);
                // With R = N every server is a root: a random server is the root of one shuffle and a neighbour of
                // six others, so the paper has a single curve there.
                for (Victim kind : reducers == o.servers() ? List.of(Victim.RANDOM) : victims) {
                    int victim = pick(o, kind);
                    WorkloadManifest without = new WorkloadManifest(workload.manifest().spec(), workload.manifest()
                            .servers().stream().filter(s -> s.server() != victim).toList());
                    String reference = ReferenceResult.compute(without).digest();
                    rows.addAll(point(o, kind, victim, without, reference, ats));
                }
            } finally {
                deleteRecursively(dir);
            }
        }
        return rows;
    }

    /** The root of partition 0, its +x neighbour, or a seeded server that is neither. */
    private static int pick(ShuffleBenchOptions o, Victim kind) {
        int root = o.rootOf(0);
        return switch (kind) {
            case ROOT -> root;
            case NEIGHBOUR -> o.shape().neighbour(root, Port.PLUS_X);
            case RANDOM -> {
                List<Integer> far = new ArrayList<>();
                for (int s = 0; s < o.servers(); s++) {
                    boolean near = s == root;
                    for (Port p : o.shape().links()) {
                        near |= o.shape().neighbour(root, p) == s;
                    }
                    if (!near) {
                        far.add(s);
                    }
                }
                yield far.get(new Random(o.seed()).nextInt(far.size()));
            }
        };
    }

    /** One run; {@code boundSeconds} is NaN without a failure, at R &gt; 1 and on unshaped links. */
    private record Timed(double seconds, String digest, int restarts, int repairs, double boundSeconds) {
    }

    /**
     * The rows of one (R, victim): an uncounted run first (a fresh torus after other points), then {@link #runs}
     * rounds, each a run without the failure followed by one run per failure time, so T and the failure runs are
     * measured side by side as the machine drifts. A failure at {@code at} crashes the victim after {@code at} times
     * the median T so far; the rows report medians.
     */
    private List<Row> point(ShuffleBenchOptions o, Victim kind, int victim, WorkloadManifest manifest,
            String reference, List<Double> ats) throws IOException, InterruptedException {
        String where = String.format(Locale.ROOT, "R=%d %s %s", o.reducers(), kind.label(), o.shape().coord(victim));
        Optional<RecoveryBound> bound = RecoveryBound.of(o, manifest, kind == Victim.ROOT, victim, heirOf(o, victim));
        Timed warm = once(o, manifest, victim, Optional.empty(), bound);
        say(String.format(Locale.ROOT, "bench failure: %s: uncounted run without failure %.2f s", where,
                warm.seconds));
        List<Double> baselines = new ArrayList<>();
        List<List<Timed>> failed = new ArrayList<>();
        ats.forEach(at -> failed.add(new ArrayList<>()));
        boolean correct = warm.digest.equals(reference);
        for (int round = 1; round <= runs; round++) {
            Timed base = once(o, manifest, victim, Optional.empty(), bound);
            baselines.add(base.seconds);
            correct &= base.digest.equals(reference);
            double t = median(baselines);
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                    "bench failure: %s round %d of %d: T %.2f s", where, round, runs, base.seconds));
            for (int i = 0; i < ats.size(); i++) {
                Timed f = once(o, manifest, victim, Optional.of(ats.get(i) * t), bound);
                failed.get(i).add(f);
                line.append(String.format(Locale.ROOT, ", at %.2fT %.2f s (%d restart%s, %d repair%s%s)", ats.get(i),
                        f.seconds, f.restarts, f.restarts == 1 ? "" : "s", f.repairs, f.repairs == 1 ? "" : "s",
                        f.digest.equals(reference) ? "" : ", OUTPUT DIFFERS"));
            }
            say(line.toString());
        }
        double t = median(baselines);
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < ats.size(); i++) {
            List<Timed> runsAt = failed.get(i);
            double seconds = median(runsAt.stream().map(Timed::seconds).toList());
            // Over the runs that have one: a crash that came after its shuffle's end has none.
            List<Double> bounds = runsAt.stream().map(Timed::boundSeconds).filter(Double::isFinite).toList();
            double boundSeconds = bounds.isEmpty() ? Double.NaN : median(bounds);
            int restarts = runsAt.stream().mapToInt(Timed::restarts).max().orElse(0);
            int repairs = runsAt.stream().mapToInt(Timed::repairs).max().orElse(0);
            boolean ok = correct && runsAt.stream().allMatch(f -> f.digest.equals(reference));
            rows.add(new Row(kind, ats.get(i), o.reducers(), o.shape().coord(victim), t, seconds, boundSeconds,
                    restarts, repairs, ok));
        }
        return rows;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /** The server that runs the next reduce attempt of a crashed root: its +x neighbour. */
    private static int heirOf(ShuffleBenchOptions o, int victim) {
        return o.shape().neighbour(victim, Port.PLUS_X);
    }

    /**
     * One shuffle of every partition on a fresh torus, crashing {@code victim} after {@code crashAfter} seconds; with
     * a failure and a {@code bound}, the run's {@link RecoveryBound} from what partition 0's reducer held at the crash.
     */
    private Timed once(ShuffleBenchOptions o, WorkloadManifest manifest, int victim, Optional<Double> crashAfter,
            Optional<RecoveryBound> bound) throws IOException, InterruptedException {
        Map<String, String> conf = new HashMap<>();
        conf.put(TransportConfig.CLUSTER_SECRET, "failure-bench-cluster-secret-" + System.nanoTime());
        conf.put(TransportConfig.SEGMENT_BYTES, Integer.toString(o.segmentBytes()));
        conf.put(TransportConfig.MAX_FRAME_BYTES, Integer.toString(2 * o.segmentBytes()));
        conf.put(TransportConfig.FAILURE_TIMEOUT_MS, Long.toString(failureTimeoutMs));
        if (bufferBudgetBytes > 0) {
            conf.put(TransportConfig.BUFFER_BUDGET_BYTES, Long.toString(bufferBudgetBytes));
        }
        if (o.linkBytesPerSecond() > 0) {
            conf.put(TransportConfig.SHAPING_BYTES_PER_SECOND, Long.toString(o.linkBytesPerSecond()));
            conf.put(TransportConfig.SHAPING_BURST_BYTES, Integer.toString(o.segmentBytes()));
        }
        ScheduledExecutorService crasher = Executors.newSingleThreadScheduledExecutor();
        try (EmbeddedTorus torus = EmbeddedTorus.start(FailureView.none(o.shape()), TransportConfig.of(conf),
                EmbeddedTorus.Wiring.IN_JVM, Math.max(2, Runtime.getRuntime().availableProcessors()))) {
            torus.registerJob(ShuffleBenchRunner.JOB_ID, ShuffleBenchRunner.job(manifest.spec()));
            TreeSet<String> attempts = new TreeSet<>();
            for (ServerMapOutput out : manifest.servers()) {
                String attempt = String.format(Locale.ROOT, "attempt_1700000000000_0001_m_%06d_0", out.server());
                torus.addMapOutput(out.server(), ShuffleBenchRunner.JOB_ID, new LocalMapOutput(attempt,
                        new org.apache.hadoop.fs.Path(out.file().toString()),
                        new org.apache.hadoop.fs.Path(out.index().toString())));
                attempts.add(attempt);
            }
            // The daemon that runs the next reduce attempt of a crashed root: its failure view changes first.
            int heir = heirOf(o, victim);
            CompletableFuture<Void> heirKnows = new CompletableFuture<>();
            torus.node(heir).addListener(new TransportListener() {
                @Override
                public void serverFailed(Coord server) {
                    if (server.equals(o.shape().coord(victim))) {
                        heirKnows.complete(null);
                    }
                }
            });
            long start = System.nanoTime();
            List<RootReducer> reducers = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            for (int p = 0; p < o.reducers(); p++) {
                reducers.add(null);
                threads.add(startReducer(torus, o, p, 0, o.rootOf(p), attempts, reducers));
            }
            // Written by the crasher thread before the crash, read after the reducers were joined (which follows it).
            long[] atCrash = {-1, 0};
            RootReducer first = reducers.get(0);
            crashAfter.ifPresent(s -> crasher.schedule(() -> {
                atCrash[1] = first.stream().bytesDelivered();
                atCrash[0] = System.nanoTime() - start;
                torus.crash(victim);
            }, (long) (s * 1e9), TimeUnit.NANOSECONDS));
            long end = start;
            OutputDigest digest = new OutputDigest(o.reducers());
            for (int p = 0; p < o.reducers(); p++) {
                threads.get(p).join();
                RootReducer.Outcome outcome = reducers.get(p).outcome().orElseThrow();
                if (outcome instanceof RootReducer.Failed f && crashAfter.isPresent() && o.rootOf(p) == victim) {
                    // The reduce attempt died with its server: the next attempt roots a fresh shuffle elsewhere.
                    await(heirKnows, "daemon " + o.shape().coord(heir) + " never declared " + o.shape().coord(victim)
                            + " failed");
                    startReducer(torus, o, p, 1, heir, attempts, reducers).join();
                    outcome = reducers.get(p).outcome().orElseThrow();
                }
                if (outcome instanceof RootReducer.Failed f) {
                    throw new IllegalStateException("shuffle failed: " + f.reason());
                }
                end = Math.max(end, ((RootReducer.Ended) outcome).endNanos());
                reducers.get(p).output().digestInto(digest, p);
            }
            int restarts = 0;
            int repairs = 0;
            for (int s = 0; s < o.servers(); s++) {
                if (s != victim || crashAfter.isEmpty()) {
                    restarts += (int) torus.service(s).counters().snapshot().restarts();
                    repairs += (int) torus.service(s).counters().snapshot().repairs();
                }
            }
            double boundSeconds = Double.NaN;
            if (bound.isPresent() && crashAfter.isPresent()) {
                crasher.shutdownNow(); // a crash not yet run (the shuffle ended first) never runs
                if (!crasher.awaitTermination(60, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the crash of " + o.shape().coord(victim) + " did not end");
                }
                if (atCrash[0] >= 0 && atCrash[0] <= end - start) { // a crash after the end failed nothing
                    boundSeconds = bound.get().seconds(atCrash[0] / 1e9, atCrash[1], first.stream().bytesDelivered());
                }
            }
            return new Timed((end - start) / 1e9, digest.finish(), restarts, repairs, boundSeconds);
        } finally {
            crasher.shutdownNow();
        }
    }

    private static Thread startReducer(EmbeddedTorus torus, ShuffleBenchOptions o, int partition, int attempt,
            int root, TreeSet<String> attempts, List<RootReducer> reducers) {
        ShuffleSpec spec = new ShuffleSpec(JOB_KEY, ShuffleBenchRunner.JOB_ID, partition, attempt,
                o.shape().coord(root), o.mode(), o.trees(), attempts);
        RootStream stream = torus.service(root).startShuffle(spec);
        RootReducer reducer = new RootReducer(partition, stream, STALL_LIMIT);
        reducers.set(partition, reducer);
        Thread t = new Thread(reducer, "bench-failure-reducer-" + partition + "-" + attempt);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void await(CompletableFuture<Void> f, String otherwise) throws InterruptedException {
        try {
            f.get(60, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException(otherwise);
        }
    }

    private void say(String line) {
        progress.ifPresent(p -> {
            p.println(line);
            p.flush();
        });
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (java.util.stream.Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
