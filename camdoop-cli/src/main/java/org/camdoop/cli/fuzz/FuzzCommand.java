package org.camdoop.cli.fuzz;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.camdoop.cli.CamdoopCli;
import org.camdoop.shuffle.protocol.JobSpecCodec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code camdoop fuzz}: random and mutated frames at both ports of running daemons while a real shuffle runs beside
 * them; see the description below and docs/security.md for a run's figures.
 */
@Command(name = "fuzz", mixinStandardHelpOptions = true,
        description = {"Start three real daemons (a 3x1x1 torus on loopback, each with its Unix socket), register a job"
                + " through their local channels as tasks do, and run its shuffle once for reference. Then send random"
                + " and mutated frames at every daemon's torus port (an attacker without the cluster secret) and Unix"
                + " socket (a local process of the job's own user, without its secret) until --frames have gone,"
                + " shuffling the job again and again meanwhile. Checks: every shuffle's output is identical to the"
                + " reference, the daemons sent no malformed reply, no daemon thread died, and buffers, direct memory"
                + " and heap returned to their baseline.",
            "Exit 0 if every check held, 1 otherwise. A progress line goes to stderr every 2 s."})
public final class FuzzCommand implements Callable<Integer> {

    /**
     * Direct memory Netty's pools may hold beyond the baseline: they keep chunks (4 MiB each) they have carved once.
     * A leak of even one small buffer per frame would exceed it many times over.
     */
    static final long DIRECT_SLACK_BYTES = 16L << 20;

    /** Heap the attack may leave behind after a collection before the run counts as leaking. */
    static final long HEAP_SLACK_BYTES = 64L << 20;

    @Spec
    CommandSpec spec;

    @Option(names = "--frames", defaultValue = "1000000", description = "Frames to send, both ports together"
            + " (default: ${DEFAULT-VALUE}).")
    long frames;

    @Option(names = "--mb-per-server", defaultValue = "1", description = "Map output per server, MB (default:"
            + " ${DEFAULT-VALUE}).")
    double mbPerServer;

    @Option(names = "--local-threads", defaultValue = "2", description = "Threads on the Unix sockets (default:"
            + " ${DEFAULT-VALUE}).")
    int localThreads;

    @Option(names = "--torus-threads", defaultValue = "1", description = "Threads on the torus ports (default:"
            + " ${DEFAULT-VALUE}).")
    int torusThreads;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of the frames and the workload (default:"
            + " ${DEFAULT-VALUE}).")
    long seed;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (frames < 1 || mbPerServer <= 0 || localThreads < 0 || torusThreads < 0 || localThreads + torusThreads == 0) {
            err.println("camdoop fuzz: --frames and --mb-per-server must be positive, and some thread must fuzz");
            return CamdoopCli.USAGE;
        }
        // The daemons log every refusal (a line per bad frame, by design); a million of them would bury the result.
        // They are counted here instead. Set before the first daemon class creates its logger.
        System.setProperty("org.slf4j.simpleLogger.log.org.camdoop", "error");
        Path work = Files.createTempDirectory("camdoop-fuzz");
        try (FuzzCluster cluster = FuzzCluster.start(work, (long) (mbPerServer * (1 << 20)), seed)) {
            err.println("camdoop fuzz: 3 daemons up; reference shuffle");
            String reference = cluster.shuffle(0);
            FuzzHealth before = FuzzHealth.of(cluster.daemons());
            FrameCounts counts = new FrameCounts();
            List<Thread> fuzzers = new ArrayList<>();
            byte[] specEncoding = JobSpecCodec.encode(cluster.daemons().get(0).registry().lookup(FuzzCluster.JOB)
                    .orElseThrow().spec());
            for (int i = 0; i < localThreads; i++) {
                fuzzers.add(new Thread(new LocalFuzzer(cluster.localSockets(), specEncoding, counts,
                        () -> counts.total() < frames, seed * 31 + i), "fuzz-local-" + i));
            }
            for (int i = 0; i < torusThreads; i++) {
                fuzzers.add(new Thread(new TorusFuzzer(cluster.torusPorts(), counts, () -> counts.total() < frames,
                        seed * 37 + i), "fuzz-torus-" + i));
            }
            long started = System.nanoTime();
            fuzzers.forEach(Thread::start);
            int rounds = 0;
            int differing = 0;
            long lastLine = 0;
            while (fuzzers.stream().anyMatch(Thread::isAlive)) {
                rounds++;
                if (!cluster.shuffle(rounds).equals(reference)) {
                    differing++;
                }
                if (System.nanoTime() - lastLine > TimeUnit.SECONDS.toNanos(2)) {
                    lastLine = System.nanoTime();
                    err.printf("camdoop fuzz: %,d of %,d frames; %d shuffles under attack, %d differing%n",
                            counts.total(), frames, rounds, differing);
                }
            }
            for (Thread t : fuzzers) {
                t.join();
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            rounds++;
            boolean afterOk = cluster.shuffle(rounds).equals(reference);
            FuzzHealth after = FuzzHealth.of(cluster.daemons());
            List<String> died = before.threadsDiedSince();
            boolean ok = differing == 0 && afterOk && counts.malformedReplies.sum() == 0 && died.isEmpty()
                    && after.reservedBuffers().equals(before.reservedBuffers())
                    && after.directBytes() <= before.directBytes() + DIRECT_SLACK_BYTES
                    && after.heapBytes() <= before.heapBytes() + HEAP_SLACK_BYTES;
            out.printf("frames sent            %,d in %.1f s (%,.0f/s)%n", counts.total(), seconds,
                    counts.total() / seconds);
            out.printf("  torus ports          %,d frames on %,d connections; %,d ERROR frames back%n",
                    counts.torusFrames.sum(), counts.torusConnections.sum(), counts.torusErrorsBack.sum());
            out.printf("  Unix sockets         %,d frames on %,d connections; %,d refused, %,d other answers%n",
                    counts.localFrames.sum(), counts.localConnections.sum(), counts.localRefusals.sum(),
                    counts.localOther.sum());
            out.printf("malformed replies      %,d%n", counts.malformedReplies.sum());
            out.printf("shuffles under attack  %d, %d differing from the reference; after: %s%n", rounds - 1,
                    differing, afterOk ? "identical" : "DIFFERENT");
            out.printf("daemon threads died    %s%n", died.isEmpty() ? "none" : died);
            out.printf("buffers reserved       %s before, %s after%n", before.reservedBuffers(),
                    after.reservedBuffers());
            out.printf("direct memory in use   %,d bytes before, %,d after%n", before.directBytes(),
                    after.directBytes());
            out.printf("heap after GC          %,d MB before, %,d MB after%n", before.heapBytes() >> 20,
                    after.heapBytes() >> 20);
            out.println(ok ? "camdoop fuzz: PASSED" : "camdoop fuzz: FAILED");
            return ok ? 0 : CamdoopCli.FAILED;
        } finally {
            org.apache.commons.io.FileUtils.deleteQuietly(work.toFile());
        }
    }
}
