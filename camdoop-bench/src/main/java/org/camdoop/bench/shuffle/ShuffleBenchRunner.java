package org.camdoop.bench.shuffle;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;
import org.camdoop.workload.OutputDigest;
import org.camdoop.workload.ReferenceResult;
import org.camdoop.workload.ServerMapOutput;
import org.camdoop.workload.SyntheticWorkload;
import org.camdoop.workload.WorkloadManifest;
import org.camdoop.workload.WorkloadSpec;
import org.camdoop.shuffle.daemon.EmbeddedTorus;
import org.camdoop.shuffle.daemon.SwitchEmulation;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.service.RootStream;
import org.camdoop.shuffle.service.vertex.LocalMapOutput;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.transport.TransportConfig;

/**
 * Runs one shuffle benchmark: writes the synthetic workload (one map output per server) to a temporary directory,
 * computes the reference, starts an embedded torus (in-JVM channels, links shaped, or a switch emulated in direct
 * mode), runs the R shuffles at once with a reducer thread per root, and compares the digests. Workload generation and
 * start-up are not timed. Not thread-safe: one run per instance at a time.
 */
public final class ShuffleBenchRunner {

    static final String JOB_ID = "job_1700000000000_0001";
    private static final long JOB_KEY = 0x1700000000000001L;
    /** The job whose shuffle warms the measured torus's daemons (not timed); the measured job is another one. */
    private static final String DAEMON_WARMUP_JOB_ID = "job_1700000000000_0002";
    private static final long DAEMON_WARMUP_JOB_KEY = 0x1700000000000002L;

    /** A job registered on the torus: what a shuffle of it names. */
    private record BenchJob(long key, String id, TreeSet<String> mapAttempts) {
    }
    /** A root stream silent this long means the shuffle is stuck; far above any sane run. */
    private static final Duration STALL_LIMIT = Duration.ofMinutes(5);
    /**
     * Map output per server of the warm-up run, in MB, whatever the measured size: a daemon that has served shuffles is
     * warm. At 0.1 MB the JIT was still compiling the merge and combine paths during a 2 MB run (its compiler threads'
     * CPU counted in the run's: 45 against 50 MB of map output per CPU-second, camdoop at 50 Mbit/s, medians of five),
     * and a 20 KB run warmed by a 20 KB run took 80 ms against 10 ms warm.
     */
    public static final double WARMUP_MB_PER_SERVER = 2.0;
    /**
     * Shuffles the warm-up runs back to back on its torus. One was not enough: on 2026-11-27 a 20 KB run after one 2 MB
     * warm-up took 80 ms, and 40-55 ms after three, as did every further run on the same torus; 2 MB runs, unshaped,
     * used 1.43-1.63 CPU-seconds after one and 1.15-1.35 after four (the C2 compiler still at work in the first).
     */
    public static final int WARMUP_SHUFFLES = 3;

    private final ShuffleBenchOptions options;
    private final Optional<PrintWriter> progress;
    /** Warm the JIT first on a torus of its own ({@link #warmUp(ShuffleBenchOptions)}). */
    private final boolean warmJit;
    /** Warm the measured torus's daemons with a shuffle of another job before the timed one. */
    private final boolean warmDaemons;
    private final Optional<Path> profile;
    /**
     * Measured shuffles run back to back on the torus (reduce attempts 0, 1, ...), every output checked; the one with
     * the median time (the lower one of an even count) is the result.
     */
    private final int shuffles;
    private final List<Double> measuredSeconds = new ArrayList<>();

    /**
     * @param progress where to print a progress line every second, if anywhere
     * @param warmup   first run the same mode {@value #WARMUP_SHUFFLES} times, unshaped, on a torus of its own (not
     *                 timed), so the JIT has compiled the merge and combine paths before the measured run: the paper
     *                 measures a warm system, and on this scale a cold JVM would add about a second to every mode;
     *                 then, on the measured torus, one shuffle of another job, so its daemons are as daemons in
     *                 service are (their first shuffle cost a 20 KB run about 20 ms more)
     */
    public ShuffleBenchRunner(ShuffleBenchOptions options, Optional<PrintWriter> progress, boolean warmup) {
        this(options, progress, warmup, Optional.empty());
    }

    /**
     * @param profile where to write a JFR recording (the JDK's "profile" settings) of the timed part only: started
     *                right before the shuffles start and dumped after the last reducer ended, so workload generation,
     *                torus start-up and the warm-up are not in it
     */
    public ShuffleBenchRunner(ShuffleBenchOptions options, Optional<PrintWriter> progress, boolean warmup,
            Optional<Path> profile) {
        this(options, progress, warmup, warmup, profile, 1);
    }

    private ShuffleBenchRunner(ShuffleBenchOptions options, Optional<PrintWriter> progress, boolean warmJit,
            boolean warmDaemons, Optional<Path> profile, int shuffles) {
        this.options = options;
        this.progress = progress;
        this.warmJit = warmJit;
        this.warmDaemons = warmDaemons;
        this.profile = profile;
        this.shuffles = shuffles;
    }

    /**
     * As {@link #ShuffleBenchRunner(ShuffleBenchOptions, Optional, boolean, Optional)}, measuring {@code repeats}
     * shuffles of the job back to back on one torus and reporting the median one ({@link #measuredSeconds} has all):
     * single runs on a 2-core machine spread by a fifth.
     */
    public ShuffleBenchRunner(ShuffleBenchOptions options, Optional<PrintWriter> progress, boolean warmup,
            Optional<Path> profile, int repeats) {
        this(options, progress, warmup, warmup, profile, repeats);
        if (repeats < 1) {
            throw new IllegalArgumentException("repeats must be at least 1, not " + repeats);
        }
        if (repeats > 1 && profile.isPresent()) {
            throw new IllegalArgumentException("a profile records one shuffle: repeat 1 with it, not " + repeats);
        }
    }

    /** The time of every measured shuffle of the last {@link #run}, in the order they ran. */
    public List<Double> measuredSeconds() {
        return List.copyOf(measuredSeconds);
    }

    /**
     * A runner that warms the measured torus's daemons with another job's shuffle and then runs the measured job's
     * {@code shuffles} times back to back (the JIT is not warmed first); for tests of that sequence.
     */
    static ShuffleBenchRunner onWarmDaemons(ShuffleBenchOptions options, int shuffles) {
        return new ShuffleBenchRunner(options, Optional.empty(), false, true, Optional.empty(), shuffles);
    }

    /**
     * Runs the benchmark.
     *
     * @throws IllegalStateException naming the partition if a shuffle failed or stalled
     */
    public ShuffleBenchResult run() throws IOException, InterruptedException {
        if (warmJit) {
            warmUp(options);
        }
        Path dir = Files.createTempDirectory("camdoop-bench-shuffle-");
        try {
            return run(dir);
        } finally {
            deleteRecursively(dir);
        }
    }

    /** {@link #warmUp(ShuffleBenchOptions, double)} with {@value #WARMUP_MB_PER_SERVER} MB per server. */
    public static void warmUp(ShuffleBenchOptions options) throws IOException, InterruptedException {
        warmUp(options, WARMUP_MB_PER_SERVER);
    }

    /**
     * Runs {@code options}' mode {@value #WARMUP_SHUFFLES} times, untimed: {@code mbPerServer} MB per server, unshaped,
     * another seed, on a torus of its own, so the JIT has compiled the merge and combine paths before a measured run.
     *
     * @throws IllegalStateException if the warm-up's output differs from its reference
     */
    public static void warmUp(ShuffleBenchOptions options, double mbPerServer) throws IOException,
            InterruptedException {
        ShuffleBenchOptions small = new ShuffleBenchOptions(options.shape(), options.ratioS(), options.reducers(),
                options.mode(), options.trees(), mbPerServer, 0, options.seed() + 1, options.segmentBytes());
        ShuffleBenchResult warm;
        try {
            warm = new ShuffleBenchRunner(small, Optional.empty(), false, false, Optional.empty(), WARMUP_SHUFFLES)
                    .run();
        } catch (IllegalStateException e) {
            throw new IllegalStateException("the " + options.mode().label() + " warm-up: " + e.getMessage(), e);
        }
        if (!warm.correct()) {
            throw new IllegalStateException("the " + options.mode().label()
                    + " warm-up run's output differs from its reference");
        }
    }

    private ShuffleBenchResult run(Path dir) throws IOException, InterruptedException {
        long generateStart = System.nanoTime();
        WorkloadSpec spec = WorkloadSpec.sRatio(options.servers(), options.ratioS(), options.bytesPerServer(),
                options.reducers(), options.seed());
        SyntheticWorkload workload = SyntheticWorkload.generate(spec, dir);
        WorkloadManifest manifest = workload.manifest();
        ReferenceResult reference = ReferenceResult.compute(manifest);
        LowerBound bound = LowerBound.compute(options, manifest);
        SwitchBound switchBound = SwitchBound.compute(options, manifest);
        double generateSeconds = (System.nanoTime() - generateStart) / 1e9;

        long startupStart = System.nanoTime();
        try (EmbeddedTorus torus = startTorus()) {
            BenchJob measured = new BenchJob(JOB_KEY, JOB_ID, registerJob(torus, spec, manifest, JOB_ID));
            double startupSeconds = (System.nanoTime() - startupStart) / 1e9;
            if (warmDaemons) {
                // Daemons in service have served shuffles before: pools grown, threads started. The measured job is
                // another one, its streams, vertices and map-output readers set up in the timed part. (The embedded
                // torus registers jobs directly, so no spec broadcast is timed, here or in any embedded bench.)
                BenchJob warm = new BenchJob(DAEMON_WARMUP_JOB_KEY, DAEMON_WARMUP_JOB_ID,
                        registerJob(torus, spec, manifest, DAEMON_WARMUP_JOB_ID));
                checked(workload, reference, bound, switchBound, timedShuffle(torus, warm, 0, Optional.empty()),
                        "the daemons' warm-up shuffle");
            }
            measuredSeconds.clear();
            List<ShuffleBenchResult> results = new ArrayList<>();
            for (int attempt = 0; attempt < shuffles; attempt++) {
                ShuffleBenchResult r = result(workload, reference, bound, switchBound, shuffle(torus, measured,
                        attempt), generateSeconds, startupSeconds);
                if (!r.correct() && shuffles > 1) {
                    throw new IllegalStateException("shuffle " + (attempt + 1) + " of " + shuffles
                            + " on one torus: its output differs from the reference");
                }
                measuredSeconds.add(r.seconds());
                results.add(r);
            }
            results.sort(Comparator.comparingDouble(ShuffleBenchResult::seconds));
            return results.get((results.size() - 1) / 2);
        }
    }

    private EmbeddedTorus startTorus() throws IOException, InterruptedException {
        Map<String, String> conf = new HashMap<>();
        conf.put(TransportConfig.CLUSTER_SECRET, "shuffle-bench-cluster-secret-" + System.nanoTime());
        int segment = options.segmentBytes();
        conf.put(TransportConfig.SEGMENT_BYTES, Integer.toString(segment));
        conf.put(TransportConfig.MAX_FRAME_BYTES, Integer.toString(2 * segment));
        // Burst of every shaped link and switch link: one segment, so a link cannot run ahead of its rate by more.
        long burst = segment;
        long rate = options.linkBytesPerSecond();
        boolean onSwitch = options.mode() == ShuffleMode.DIRECT && rate > 0;
        if (rate > 0 && !onSwitch) {
            conf.put(TransportConfig.SHAPING_BYTES_PER_SECOND, Long.toString(rate));
            conf.put(TransportConfig.SHAPING_BURST_BYTES, Long.toString(burst));
        }
        TransportConfig config = TransportConfig.of(conf);
        FailureView view = FailureView.none(options.shape());
        int threads = Math.max(2, Runtime.getRuntime().availableProcessors());
        return onSwitch
                ? EmbeddedTorus.startOnSwitch(view, config, EmbeddedTorus.Wiring.IN_JVM, threads,
                        new SwitchEmulation(rate, burst))
                : EmbeddedTorus.start(view, config, EmbeddedTorus.Wiring.IN_JVM, threads);
    }

    /** The job: Text keys, IntWritable values, Hadoop's IntSumReducer as the (new-API) combiner. */
    static JobConf job(WorkloadSpec spec) {
        JobConf job = spec.mapOutputJob();
        job.setClass(MRJobConfig.COMBINE_CLASS_ATTR, IntSumReducer.class, Reducer.class);
        return job;
    }

    /** Throws unless {@code timed}'s output is the reference. */
    private void checked(SyntheticWorkload workload, ReferenceResult reference, LowerBound bound,
            SwitchBound switchBound, ShuffleTimer timed, String what) {
        if (!result(workload, reference, bound, switchBound, timed, 0, 0).correct()) {
            throw new IllegalStateException(what + ": its output differs from the reference");
        }
    }

    private static TreeSet<String> registerJob(EmbeddedTorus torus, WorkloadSpec spec, WorkloadManifest manifest,
            String jobId) {
        torus.registerJob(jobId, job(spec));
        TreeSet<String> attempts = new TreeSet<>();
        for (ServerMapOutput out : manifest.servers()) {
            String attempt = String.format(Locale.ROOT, "attempt_%s_m_%06d_0", jobId.substring("job_".length()),
                    out.server());
            torus.addMapOutput(out.server(), jobId, new LocalMapOutput(attempt,
                    new org.apache.hadoop.fs.Path(out.file().toString()),
                    new org.apache.hadoop.fs.Path(out.index().toString())));
            attempts.add(attempt);
        }
        return attempts;
    }

    /** The timed part: R shuffles at once, a reducer thread per root, and the CPU they used. */
    private record ShuffleTimer(List<RootReducer> reducers, double seconds, double firstByteSeconds,
            double cpuUtilisation, double cpuSeconds) {
    }

    /** Runs the timed part, inside a JFR recording if {@code --profile} asked for one. */
    private ShuffleTimer shuffle(EmbeddedTorus torus, BenchJob job, int reduceAttempt)
            throws IOException, InterruptedException {
        if (profile.isEmpty()) {
            return timedShuffle(torus, job, reduceAttempt, progress);
        }
        Configuration settings;
        try {
            settings = Configuration.getConfiguration("profile");
        } catch (java.text.ParseException e) {
            throw new IOException("the JDK's JFR \"profile\" settings do not parse", e);
        }
        try (Recording recording = new Recording(settings)) {
            recording.setName("camdoop-bench-shuffle");
            recording.setToDisk(true);
            recording.start();
            ShuffleTimer timed = timedShuffle(torus, job, reduceAttempt, progress);
            recording.stop();
            recording.dump(profile.get());
            return timed;
        }
    }

    /** R shuffles of a job at once, as reduce attempt {@code reduceAttempt} (a torus runs each stream key once). */
    private ShuffleTimer timedShuffle(EmbeddedTorus torus, BenchJob job, int reduceAttempt,
            Optional<PrintWriter> progress) throws InterruptedException {
        List<RootReducer> reducers = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        long cpuStart = processCpuNanos();
        long start = System.nanoTime();
        for (int p = 0; p < options.reducers(); p++) {
            int root = options.rootOf(p);
            ShuffleSpec spec = new ShuffleSpec(job.key(), job.id(), p, reduceAttempt, torus.shape().coord(root),
                    options.mode(), options.trees(), job.mapAttempts());
            RootStream stream = torus.service(root).startShuffle(spec);
            RootReducer reducer = new RootReducer(p, stream, STALL_LIMIT);
            Thread t = new Thread(reducer, "bench-reducer-" + p);
            t.setDaemon(true);
            t.start();
            reducers.add(reducer);
            threads.add(t);
        }
        ScheduledExecutorService ticker = progress.isPresent() ? startProgress(progress.get(), reducers, start) : null;
        try {
            for (Thread t : threads) {
                t.join();
            }
        } finally {
            if (ticker != null) {
                ticker.shutdownNow();
            }
        }
        long cpu = processCpuNanos() - cpuStart;
        long end = start;
        long firstByte = -1;
        for (RootReducer r : reducers) {
            if (r.firstChunkNanos() != 0) {
                firstByte = Math.max(firstByte, r.firstChunkNanos() - start);
            }
            RootReducer.Outcome outcome = r.outcome().orElseThrow();
            if (outcome instanceof RootReducer.Failed failed) {
                throw new IllegalStateException("shuffle failed: " + failed.reason());
            }
            end = Math.max(end, ((RootReducer.Ended) outcome).endNanos());
        }
        long wallAll = System.nanoTime() - start;
        double cores = Runtime.getRuntime().availableProcessors();
        double utilisation = cpuStart < 0 ? Double.NaN : cpu / (wallAll * cores);
        double cpuSeconds = cpuStart < 0 ? Double.NaN : cpu / 1e9;
        return new ShuffleTimer(reducers, (end - start) / 1e9, firstByte < 0 ? Double.NaN : firstByte / 1e9,
                utilisation, cpuSeconds);
    }

    private static ScheduledExecutorService startProgress(PrintWriter out, List<RootReducer> reducers,
            long start) {
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "bench-progress");
            t.setDaemon(true);
            return t;
        });
        ticker.scheduleAtFixedRate(() -> {
            long bytes = reducers.stream().mapToLong(RootReducer::bytesDelivered).sum();
            out.printf(Locale.ROOT, "bench shuffle: %.0f s, %.2f MB into the roots%n",
                    (System.nanoTime() - start) / 1e9, bytes / 1e6);
            out.flush();
        }, 1, 1, TimeUnit.SECONDS);
        return ticker;
    }

    private ShuffleBenchResult result(SyntheticWorkload workload, ReferenceResult reference, LowerBound bound,
            SwitchBound switchBound, ShuffleTimer timed, double generateSeconds, double startupSeconds) {
        OutputDigest digest = new OutputDigest(options.reducers());
        long records = 0;
        long intoRoots = 0;
        long linkBytes = 0;
        long combined = 0;
        for (RootReducer r : timed.reducers()) {
            r.output().digestInto(digest, r.partition());
            records += r.output().records();
            intoRoots += r.bytesDelivered();
            RootReducer.Ended ended = (RootReducer.Ended) r.outcome().orElseThrow();
            linkBytes += ended.end().linkBytes();
            combined += ended.end().recordsCombined();
        }
        return new ShuffleBenchResult(options, workload.achievedOutputRatio(), timed.seconds(),
                timed.firstByteSeconds(), bound, switchBound,
                workload.manifest().intermediateBytes(), reference.outputBytes(), intoRoots, linkBytes, combined,
                records, reference.records(), digest.finish(), reference.digest(), timed.cpuUtilisation(),
                timed.cpuSeconds(), Runtime.getRuntime().availableProcessors(), generateSeconds, startupSeconds);
    }

    /** Process CPU time in nanoseconds, or -1 where the JVM does not report it. */
    private static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
