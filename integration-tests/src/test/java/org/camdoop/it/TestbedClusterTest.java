package org.camdoop.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.examples.terasort.TeraGen;
import org.apache.hadoop.examples.terasort.TeraSort;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The testbed as an operator's cluster: the distribution installed as docs/getting-started.md says, on a 3x3x3 torus of
 * network namespaces with 50 Mbit/s links, a ResourceManager, a JobHistory server and 9 NodeManagers (Hadoop 3.5's
 * jars from Maven Central, each a process on its own host) and 18 forwarding-only daemons. Jobs are the unmodified
 * examples jar, submitted by the ordinary job client; Camdoop's differ from the stock ones only in the two job keys.
 *
 * <p>Wordcount and terasort through Camdoop give the stock shuffle's output: wordcount's is
 * {@link WordCountInput#expectedOutput}, which CamdoopWordCountTest checks against a stock job's on the mini cluster in
 * the same run; terasort's is byte-identical to the same terasort run on the stock shuffle in this JVM's
 * LocalJobRunner. Beside the Camdoop wordcount a small stock wordcount (one map) runs on the testbed: Hadoop's own
 * HTTP shuffle, served by Camdoop's ShuffleHandler loaded from the shaded jar as the NodeManagers' aux service, is
 * what a reduce falls back to. Then faults, each injected once the job's first map output is on disk (so before the
 * reduce can have its input): {@code kill -9} of a forwarding-only daemon together with a cut of a torus link of a
 * host holding that map output, then {@code kill -9} of the NodeManager (and so the daemon) holding it. Each job must
 * still complete with the stock output, with no reduce attempt on the stock shuffle. The figures printed are each
 * faulted job's time and the reason of every reduce attempt that ran the stock shuffle (docs/recovery.md). The tests
 * run in order on one testbed: each fault stays in place for the next.
 *
 * <p>Until late 2026-11-26 the stock wordcount was as large as Camdoop's, a stock terasort ran on the testbed too, and
 * the daemon kill and the cut had a job each (two jobs and three maps more on 2 cores). Together, both faults are
 * declared in the same window (the kill after the failure timeout, the cut after a heartbeat timeout and half the
 * failure timeout, 10 s each here), so the cut is routed around in the generation the kill restarted: the cut alone
 * mid-stream is the fault campaign's (camdoop-shuffle, in one JVM), and a cut of a real veth link TestbedTest's.
 *
 * <p>Needs root and iproute2 (CI has both): without them it fails, saying so, rather than skipping.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class TestbedClusterTest {

    private static final Pattern JOB_ID = Pattern.compile("Running job: (job_\\d+_\\d+)");
    private static final String FALLBACKS = "Reduce attempts on the stock shuffle";
    private static final String RECEIVED = "Bytes the reducer received";
    private static final String REPLACED = "Lost map outputs replaced mid-shuffle";
    private static final String DETERMINISTIC_MAPS = "camdoop.shuffle.deterministic-maps";
    private static final String QUICK_JVM = "-XX:TieredStopAtLevel=1";
    /** A server without a NodeManager (the testbed's default placement): its daemon only forwards and merges. */
    private static final String FORWARDING = "1,0,0";

    private Path dir;
    private Path home;
    private Path work;
    private Map<String, String> env;
    private Path input;
    /** What wordcount gives on {@link #input} through the stock shuffle. */
    private String expectedWordCount;
    private final List<String> figures = new ArrayList<>();

    @BeforeAll
    void up(@TempDir Path tempDir) throws Exception {
        dir = tempDir;
        home = Distribution.unpack(dir);
        work = dir.resolve("testbed");
        // Eleven Hadoop JVMs, a job client per job and every job's task JVMs start on 2 cores running 27 servers: C1
        // alone compiles them for a fraction of the CPU, and their short lives gain little from C2. The 18 standalone
        // daemons already run so (the testbed's CAMDOOP_JAVA_OPTS). Stock and Camdoop jobs get the same.
        env = Map.of("CAMDOOP_TESTBED_DIR", work.toString(), "CAMDOOP_TESTBED_HADOOP_OPTS", QUICK_JVM,
                "CAMDOOP_TESTBED_TASK_OPTS", QUICK_JVM + " -XX:+UseSerialGC");
        Path hadoop = Path.of(System.getProperty("camdoop.testbed.hadoop"));
        assertTrue(Files.isDirectory(hadoop.resolve("lib")), hadoop + "/lib (built by camdoop-testbed)");
        // A failed server is declared, and a broken link routed around, after a wait the failure timeout sets; at the
        // daemons' default 30 s each fault test spent most of its minute waiting for that.
        Distribution.Result up = testbed(List.of("up", "--link-mbps", "50", "--failure-timeout-ms", "10000",
                "--hadoop", hadoop.toString()));
        assertEquals(0, up.exit(), up.out());
        assertTrue(up.out().contains("camdoop-testbed: 9 NodeManagers registered"), up.out());
        assertTrue(up.out().contains("camdoop-testbed: every daemon and link is up"), up.out());
        input = dir.resolve("words");
        WordCountInput.write(input, 4, 40_000, 42);
        expectedWordCount = WordCountInput.expectedOutput(input);
    }

    @AfterAll
    void down() throws Exception {
        figures.forEach(System.out::println);
        if (home == null) {
            return;
        }
        Distribution.Result down = testbed(List.of("down"));
        assertEquals(0, down.exit(), down.out());
        assertEquals("", Distribution.run(home, Map.of(), "ip", "netns", "list").out(), "no namespace left");
        assertTrue(Distribution.run(home, Map.of(), "pgrep", "-f", work.toString()).out().isEmpty(),
                "no process of the testbed left");
        assertTrue(!Files.exists(work), "no testbed files left");
        try (Stream<Path> names = Files.list(Path.of("/etc/netns"))) {
            assertEquals(List.of(), names.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("camdoop-"))
                    .toList(), "no /etc/netns/camdoop-* left");
        } catch (java.nio.file.NoSuchFileException none) {
            // no namespace ever had its own /etc files, or all were removed with the directory
        }
    }

    @Test
    @Order(1)
    void wordcountThroughCamdoopGivesTheStockOutput() throws Exception {
        Path out = dir.resolve("wordcount-camdoop");
        Path small = dir.resolve("words-small");
        WordCountInput.write(small, 1, 2_000, 43);
        Path stockOut = dir.resolve("wordcount-stock");
        Job stock = Job.start(this, true, List.of("wordcount", small.toString(), stockOut.toString()));
        Job camdoop = Job.start(this, false, List.of("wordcount", input.toString(), out.toString()));
        stock.await();
        camdoop.await();
        assertEquals(WordCountInput.expectedOutput(small), WordCountInput.actualOutput(stockOut), "stock wordcount");
        assertEquals(0, camdoop.counter(FALLBACKS).orElse(0L), camdoop.output());
        assertTrue(camdoop.counter(RECEIVED).orElse(0L) > 0, camdoop.output());
        assertEquals(expectedWordCount, WordCountInput.actualOutput(out));
        figures.add(String.format(Locale.ROOT, "testbed wordcount through Camdoop: %.1f s (job client, launch to"
                + " exit; a stock wordcount of one map beside it: %.1f s)", camdoop.seconds(), stock.seconds()));
    }

    @Test
    @Order(2)
    void terasortThroughCamdoopIsIdenticalToTheStockShuffle() throws Exception {
        Path generated = dir.resolve("tera-in");
        // TeraGen is map-only, with no shuffle to test: it runs in this JVM's LocalJobRunner, not on the testbed.
        Configuration local = new Configuration();
        local.set("mapreduce.framework.name", "local");
        local.set("fs.defaultFS", "file:///");
        local.setInt("mapreduce.job.maps", 4);
        assertEquals(0, ToolRunner.run(local, new TeraGen(), new String[] {"60000", generated.toString()}), "teragen");
        Path stock = dir.resolve("tera-stock");
        Path camdoop = dir.resolve("tera-camdoop");
        List<String> program = new ArrayList<>(List.of("terasort"));
        program.addAll(terasort(generated, camdoop));
        Job camdoopJob = Job.start(this, false, program);
        // The reference, while the testbed sorts: the same program on the stock shuffle in this JVM's LocalJobRunner
        // (every record is sampled, so the same partition file and the same two partitions). Its partitioner opens
        // _partition.lst in this JVM's working directory, where the LocalJobRunner links the cached file, unless a
        // file of that name is there already: a link left by an interrupted run would point at a deleted file.
        Path link = Path.of(System.getProperty("user.dir"), "_partition.lst");
        Files.deleteIfExists(link);
        try {
            assertEquals(0, ToolRunner.run(local, new TeraSort(), terasort(generated, stock).toArray(String[]::new)),
                    "terasort on the stock shuffle");
        } finally {
            Files.deleteIfExists(link);
        }
        camdoopJob.await();
        assertEquals(0, camdoopJob.counter(FALLBACKS).orElse(0L), camdoopJob.output());
        for (String part : List.of("part-r-00000", "part-r-00001")) {
            assertTrue(Files.size(stock.resolve(part)) > 0, part);
            assertEquals(-1L, Files.mismatch(stock.resolve(part), camdoop.resolve(part)), part + " differs");
        }
        figures.add(String.format(Locale.ROOT, "testbed terasort through Camdoop: %.1f s (job client, launch to exit)",
                camdoopJob.seconds()));
    }

    /**
     * TeraSort's partitioner opens {@code _partition.lst} relative to the default file system's working directory,
     * which a task sets to the job's: on a shared local file system (the testbed's file:///) that is the client's,
     * not the container's where the cached copy is linked. The job's working directory is made its output
     * directory, where TeraSort writes the file before it submits the job. With HDFS as the default file system
     * nothing is needed. (The LocalJobRunner ignores the setting: see the reference run.) Without the program's name.
     */
    private static List<String> terasort(Path in, Path out) {
        return List.of("-Dmapreduce.job.reduces=2", "-Dmapreduce.job.working.dir=" + out, in.toString(),
                out.toString());
    }

    @Test
    @Order(3)
    void killingAForwardingDaemonAndCuttingALinkMidShuffle() throws Exception {
        // No map output died with the daemon: the root restarts the shuffle without it, on Camdoop. Both ends of the
        // cut link are alive: they route around it and nobody is declared failed for it (docs/recovery.md). Until
        // 2026-11-26 either fault sent the reduce to the stock shuffle.
        Job job = faulted("kill -9 of forwarding-only daemon " + FORWARDING + " and a torus link cut",
                holder -> List.of(List.of("kill", FORWARDING), List.of("cut", holder, neighbour(holder))));
        assertEquals(0, job.counter(FALLBACKS).orElse(0L), figures.get(figures.size() - 1));
        // Started again, the killed daemon is a new run of it, which all 26 others take back into their views
        // (docs/recovery.md, "Rejoin"; NodeManagers' daemons log in their NodeManager's log): the next job plans with
        // it. Before rejoin it stayed out until every daemon restarted.
        long startNanos = System.nanoTime();
        Distribution.Result started = testbed(List.of("start", FORWARDING));
        assertEquals(0, started.exit(), started.out());
        Distribution.awaitCheck(home, env, 0, out -> out.trim().equals("26"), "sh", "-c",
                "cat " + work.resolve("logs") + "/*.log | grep -c 'server " + FORWARDING + " rejoined'");
        figures.add(String.format(Locale.ROOT, "testbed start of the killed daemon %s: every other daemon took it"
                + " back %.1f s after the start command", FORWARDING, (System.nanoTime() - startNanos) / 1e9));
    }

    @Test
    @Order(4)
    void killingTheNodeManagerHoldingMapOutputsMidShuffle() throws Exception {
        // Its map outputs died with it: the reduce reports them lost (fetch failures) and the ApplicationMaster re-runs
        // those maps. A shuffle that knew where they were pauses and takes the new attempts in if nothing had reached
        // the reducer yet; else (wordcount does not declare its maps deterministic), or if the outputs were gone
        // before the shuffle began, the reduce's retry shuffles them on Camdoop (docs/recovery.md, "Lost map
        // outputs"; until 2026-11-26 it ended on the stock shuffle).
        Job job = faulted("kill -9 of the NodeManager (and its daemon) holding a map output",
                holder -> List.of(List.of("kill", holder)));
        assertEquals(0, job.counter(FALLBACKS).orElse(0L), figures.get(figures.size() - 1));
    }

    @Test
    @Order(5)
    void killingANodeManagerHoldingMapOutputsOnceTheShuffleRunsPausesAndResumesIt() throws Exception {
        // Once the shuffle runs, a NodeManager holding map outputs (not the reducer's, not the ApplicationMaster's) is
        // killed: its daemon dies with them. The root pauses the shuffle; the reduce task reports the outputs lost;
        // the ApplicationMaster runs those maps again; the task names the new attempts and the shuffle resumes after
        // the last key the reducer holds: wordcount's maps are deterministic, and the job says so
        // (docs/recovery.md, "Lost map outputs"). No reduce attempt fails.
        Path out = dir.resolve("wordcount-resumed");
        Job job = Job.start(this, false, List.of("wordcount", "-D" + DETERMINISTIC_MAPS + "=true", input.toString(),
                out.toString()));
        String root = job.shuffleRoot();
        TestbedFiles files = new TestbedFiles(work);
        String app = job.applicationId().orElseThrow();
        Optional<String> master = files.applicationMasterHost(app);
        List<String> holders = files.mapOutputHosts(app).stream().filter(h -> !h.equals(root)
                && !master.equals(Optional.of(h))).toList();
        assertTrue(!holders.isEmpty(), "no map output outside the reducer's and the ApplicationMaster's hosts "
                + root + ", " + master);
        long faultNanos = System.nanoTime();
        Distribution.Result killed = testbed(List.of("kill", holders.get(0)));
        assertEquals(0, killed.exit(), killed.out());
        job.await();
        assertEquals(expectedWordCount, WordCountInput.actualOutput(out), "the output differs from the stock");
        assertEquals(0, job.counter(FALLBACKS).orElse(0L), job.output());
        assertEquals(0, job.counter("Failed reduce tasks").orElse(0L), job.output());
        assertTrue(job.counter(REPLACED).orElse(0L) > 0, "no lost map output replaced mid-shuffle:\n" + job.output());
        figures.add(String.format(Locale.ROOT, "testbed fault, kill -9 of the NodeManager holding map outputs on %s"
                + " once the shuffle rooted on %s ran (map outputs on %s, ApplicationMaster on %s): job %.1f s, %.1f s"
                + " after the fault; lost map outputs replaced mid-shuffle %d, reduce attempts on the stock shuffle %d",
                holders.get(0), root, files.mapOutputHosts(app), master.orElse("?"), job.seconds(),
                (job.finishedNanos - faultNanos) / 1e9, job.counter(REPLACED).orElse(0L),
                job.counter(FALLBACKS).orElse(0L)));
    }

    /**
     * Runs wordcount through Camdoop; once its first map output is on disk, runs the testbed commands {@code faults}
     * gives for the server holding it, one after the other; the job must complete with the stock output. Returns the
     * job, finished.
     */
    private Job faulted(String what, java.util.function.Function<String, List<List<String>>> faults)
            throws Exception {
        Path out = dir.resolve("wordcount-" + figures.size());
        Job job = Job.start(this, false, List.of("wordcount", input.toString(), out.toString()));
        String holder = job.firstMapOutputHost();
        long faultNanos = System.nanoTime();
        for (List<String> fault : faults.apply(holder)) {
            Distribution.Result injected = testbed(fault);
            assertEquals(0, injected.exit(), injected.out());
        }
        job.await();
        assertEquals(expectedWordCount, WordCountInput.actualOutput(out), what + ": the output differs from the stock");
        figures.add(String.format(Locale.ROOT, "testbed fault, %s (map output on %s): job %.1f s, %.1f s after the"
                + " fault; reduce attempts on the stock shuffle %d, bytes the reducer received through Camdoop %d%s",
                what, holder, job.seconds(), (job.finishedNanos - faultNanos) / 1e9, job.counter(FALLBACKS).orElse(0L),
                job.counter(RECEIVED).orElse(0L), job.fallbackReasons().stream().map(r -> "\n    why: " + r)
                        .collect(java.util.stream.Collectors.joining())));
        return job;
    }

    /** The +x neighbour of {@code x,y,z} on the 3x3x3 torus, or its +y one where that is the killed daemon's. */
    private static String neighbour(String coord) {
        int[] xyz = java.util.Arrays.stream(coord.split(",")).mapToInt(Integer::parseInt).toArray();
        String x = ((xyz[0] + 1) % 3) + "," + xyz[1] + "," + xyz[2];
        return !x.equals(FORWARDING) ? x : xyz[0] + "," + ((xyz[1] + 1) % 3) + "," + xyz[2];
    }

    private Distribution.Result testbed(List<String> args) throws Exception {
        List<String> command = new ArrayList<>(List.of(home.resolve("sbin/camdoop-testbed.sh").toString()));
        command.addAll(args);
        return Distribution.run(home, env, command.toArray(String[]::new));
    }

    /** One examples program run by {@code testbed run}, its output going to a file while it runs. */
    private static final class Job {
        private final TestbedClusterTest testbed;
        private final Process process;
        private final Path log;
        private final long startNanos = System.nanoTime();
        /** When the program exited, taken as it exits: a job is awaited only after what the test did meanwhile. */
        private final CompletableFuture<Long> exitNanos;
        private long finishedNanos;

        private Job(TestbedClusterTest testbed, Process process, Path log) {
            this.testbed = testbed;
            this.process = process;
            this.log = log;
            this.exitNanos = process.onExit().thenApply(p -> System.nanoTime());
        }

        /** Starts {@code program} on the stock shuffle, or through Camdoop (the two job keys {@code run} adds). */
        static Job start(TestbedClusterTest t, boolean stock, List<String> program) throws IOException {
            List<String> command = new ArrayList<>(List.of(t.home.resolve("sbin/camdoop-testbed.sh").toString(),
                    "run"));
            if (stock) {
                command.add("--stock");
            }
            command.add("--");
            command.addAll(program);
            Path log = Files.createTempFile(t.dir, program.get(0) + "-", ".log");
            ProcessBuilder pb = new ProcessBuilder(command).directory(t.home.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            pb.environment().putAll(t.env);
            return new Job(t, pb.start(), log);
        }

        /** Waits (at most 5 minutes) for the program to exit 0. */
        void await() throws Exception {
            assertTrue(process.waitFor(5, TimeUnit.MINUTES), "the job did not finish in 5 minutes:\n" + output());
            finishedNanos = exitNanos.get();
            assertEquals(0, process.exitValue(), output());
        }

        double seconds() {
            return (finishedNanos - startNanos) / 1e9;
        }

        String output() {
            try {
                return Files.readString(log, StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "(no output: " + e + ")";
            }
        }

        /** The job's id, once the job client printed it. */
        Optional<String> jobId() {
            Matcher m = JOB_ID.matcher(output());
            return m.find() ? Optional.of(m.group(1)) : Optional.empty();
        }

        Optional<String> applicationId() {
            return jobId().map(id -> id.replace("job_", "application_"));
        }

        /**
         * The root of this job's shuffle (partition 0), polled every 50 ms for at most 3 minutes: its daemon logs
         * {@code starting shuffle} once every map finished and the reduce task asked for it.
         */
        String shuffleRoot() throws Exception {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
            while (System.nanoTime() < deadline && process.isAlive()) {
                Optional<String> id = jobId();
                Optional<String> root = id.isPresent() ? new TestbedFiles(testbed.work).shuffleRoot(id.get(), 0)
                        : Optional.empty();
                if (root.isPresent()) {
                    return root.get();
                }
                Thread.sleep(50);
            }
            throw new AssertionError("no daemon logged the start of the shuffle:\n" + output());
        }

        /** A counter the job client printed at the end, by its display name. */
        Optional<Long> counter(String name) {
            Matcher m = Pattern.compile("\\s" + Pattern.quote(name) + "=(\\d+)").matcher(output());
            return m.find() ? Optional.of(Long.parseLong(m.group(1))) : Optional.empty();
        }

        /**
         * What each reduce attempt that ran the stock shuffle logged as the reason (CamdoopShuffle's WARN line in its
         * container's syslog, under its NodeManager's log directory).
         */
        List<String> fallbackReasons() throws IOException {
            Matcher m = JOB_ID.matcher(output());
            if (!m.find()) {
                return List.of();
            }
            String app = m.group(1).replace("job_", "application_");
            List<String> reasons = new ArrayList<>();
            try (Stream<Path> files = Files.walk(testbed.work.resolve("hosts"))) {
                for (Path f : files.filter(p -> p.getFileName().toString().equals("syslog")
                        && p.toString().contains("/nm-logs/" + app + "/")).sorted().toList()) {
                    for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                        if (line.contains("running the stock shuffle")) {
                            reasons.add(line.substring(line.indexOf("CamdoopShuffle")));
                        }
                    }
                }
            }
            return reasons;
        }

        /**
         * The coordinate of the first host with a map output of this job on disk, polled every 50 ms (the output
         * appears in a NodeManager's local dir; nothing tells the client), for at most 3 minutes.
         */
        String firstMapOutputHost() throws Exception {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
            while (System.nanoTime() < deadline && process.isAlive()) {
                Optional<String> app = applicationId();
                if (app.isPresent()) {
                    List<String> hosts = new TestbedFiles(testbed.work).mapOutputHosts(app.get());
                    if (!hosts.isEmpty()) {
                        return hosts.get(0);
                    }
                }
                Thread.sleep(50);
            }
            throw new AssertionError("no map output appeared:\n" + output());
        }
    }
}
