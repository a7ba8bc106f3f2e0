package org.camdoop.shuffle.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapTaskCompletionEventsUpdate;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapred.TaskCompletionEvent;
import org.apache.hadoop.mapred.TaskUmbilicalProtocol;
import org.apache.hadoop.mapreduce.security.TokenCache;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.util.Progress;
import org.camdoop.shuffle.daemon.CamdoopDaemon;
import org.camdoop.shuffle.daemon.DaemonConfig;
import org.camdoop.shuffle.jobs.JobsConfig;
import org.camdoop.shuffle.protocol.MapOutput;
import org.camdoop.shuffle.protocol.StreamItem;
import org.camdoop.shuffle.testing.NodeManagerDirs;
import org.camdoop.shuffle.testing.WordCounts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Both plug-ins against three real daemons on loopback, through the local protocol: the map side's registration path,
 * then the reduce side with completion events (including a speculative duplicate and an obsolete attempt).
 */
class PluginsOnDaemonsTest {
    private static final String JOB = "job_1700000000000_0005";
    private static final byte[] SECRET = "the shuffle secret".getBytes();

    @TempDir
    Path dir;

    private List<CamdoopDaemon> start(int servers) throws Exception {
        return start(servers, new Configuration(false));
    }

    /** {@code servers} daemons in a ring, each configured with {@code extra} on top of the test's settings. */
    private List<CamdoopDaemon> start(int servers, Configuration extra) throws Exception {
        StringBuilder t = new StringBuilder("shape " + servers + "x1x1\n");
        for (int s = 0; s < servers; s++) {
            try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                t.append(s).append(",0,0 127.0.0.1:").append(probe.getLocalPort()).append('\n');
            }
        }
        Path topology = dir.resolve("topology");
        Files.writeString(topology, t);
        List<CamdoopDaemon> daemons = new ArrayList<>();
        for (int s = 0; s < servers; s++) {
            Configuration c = new Configuration(false);
            c.set("camdoop.topology.file", topology.toString());
            c.set("camdoop.cluster.secret", "plugins-on-daemons-test-cluster-secret-32b");
            c.set(DaemonConfig.COORDINATE, s + ",0,0");
            c.set(DaemonConfig.VERTEX_THREADS, "1");
            c.set("camdoop.daemon.jar-cache.dir", dir.resolve("jars-" + s).toString());
            c.set(JobsConfig.LOCAL_DIRS, localDir(s).toString());
            extra.forEach(e -> c.set(e.getKey(), e.getValue()));
            CamdoopDaemon d = CamdoopDaemon.start(c);
            // What CamdoopShuffleHandler does in initializeApplication (the job's user: this process's).
            d.tokens().add(JOB, SECRET, NodeManagerDirs.USER);
            daemons.add(d);
        }
        return daemons;
    }

    /** The NodeManager local dir of server {@code s}, where its map tasks leave their outputs. */
    private Path localDir(int s) {
        return dir.resolve("nm-" + s);
    }

    /** The task's JobConf on the server of {@code daemon}: its credentials and where its daemon listens. */
    private static JobConf taskConf(JobConf job, CamdoopDaemon daemon) {
        JobConf task = new JobConf(job);
        task.set(CamdoopJobConfig.DAEMON_LOCAL_SOCKET, daemon.localSocket().toString());
        task.set("mapreduce.framework.name", "yarn");
        // A Camdoop job sets both plug-ins; the maps here register as Camdoop's collector would.
        task.set(org.apache.hadoop.mapreduce.MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR,
                CamdoopMapOutputCollector.class.getName());
        Credentials creds = new Credentials();
        TokenCache.setShuffleSecretKey(SECRET, creds);
        task.getCredentials().addAll(creds);
        return task;
    }

    /** Per word the sum of its values, as the reducer would see them. */
    private static SortedMap<String, Long> sums(RawKeyValueIterator it) throws Exception {
        return sums(it, Long.MAX_VALUE);
    }

    /** Per word the sum of its values over the next {@code records} records (fewer at the end). */
    private static SortedMap<String, Long> sums(RawKeyValueIterator it, long records) throws Exception {
        SortedMap<String, Long> sums = new TreeMap<>((a, b) -> new Text(a).compareTo(new Text(b)));
        for (long r = 0; r < records && it.next(); r++) {
            sums.merge(WordCounts.text(it.getKey().getData(), it.getKey().getPosition(),
                    it.getKey().getLength() - it.getKey().getPosition()),
                    (long) WordCounts.intValue(it.getValue().getData(), it.getValue().getPosition(),
                            it.getValue().getLength() - it.getValue().getPosition()), Long::sum);
        }
        return sums;
    }

    private static String attempt(int map, int n) {
        return String.format("attempt_1700000000000_0005_m_%06d_%d", map, n);
    }

    @Test
    void mapOutputsRegisteredByTasksReachTheReducerThroughItsDaemon() throws Exception {
        int reducers = 2;
        JobConf job = WordCounts.jobWithCombiner(reducers);
        job.set("mapreduce.job.id", JOB);
        job.setNumMapTasks(3);
        // Every task of a job has the same camdoop.* keys (they are part of the job spec the daemons compare).
        job.setBoolean(CamdoopJobConfig.FALLBACK_ENABLED, false);
        // A stream that stalls fails the test instead of hanging the build (seen once under load: see the report).
        job.setInt(CamdoopJobConfig.STALL_TIMEOUT_MS, 60_000);
        List<CamdoopDaemon> daemons = start(3);
        try {
            List<Map<String, Integer>> maps = new ArrayList<>();
            List<TaskCompletionEvent> events = new ArrayList<>();
            for (int m = 0; m < 3; m++) {
                Map<String, Integer> counts = Map.of("apple", m + 1, "pear", 2, "only" + m, 1);
                maps.add(counts);
                events.add(register(job, daemons, m, attempt(m, 0), counts, events.size()));
            }
            // A speculative duplicate of map 0 on another server (same data): it must not count twice.
            events.add(register(job, daemons, 2, attempt(0, 1), maps.get(0), events.size()));
            // Map 1's first attempt is declared obsolete after a retry succeeded on server 0.
            events.add(register(job, daemons, 0, attempt(1, 1), maps.get(1), events.size()));
            events.add(new TaskCompletionEvent(events.size(), TaskAttemptID.forName(attempt(1, 0)), 1, true,
                    TaskCompletionEvent.Status.OBSOLETE, "h"));
            for (int partition = 0; partition < reducers; partition++) {
                TaskAttemptID reduce = TaskAttemptID.forName(
                        String.format("attempt_1700000000000_0005_r_%06d_0", partition));
                CamdoopShuffle<Object, Object> shuffle = new CamdoopShuffle<>();
                JobConf reduceConf = taskConf(job, daemons.get(1));
                shuffle.init(context(reduceConf, reduce, umbilical(events)));
                SortedMap<String, Long> sums = sums(shuffle.run());
                shuffle.close();
                assertEquals(WordCounts.reference(maps, partition, reducers), sums);
            }
        } finally {
            for (CamdoopDaemon d : daemons) {
                d.close();
            }
        }
    }

    @Test
    void aRetriedReduceAttemptRootsAFreshCamdoopShuffle() throws Exception {
        // The first attempt's server may simply have died (docs/recovery.md): its retry runs on Camdoop again, even
        // with the fallback on. (Were it sent to the stock shuffle, that would fail here: no ShuffleHandler serves it.)
        JobConf job = WordCounts.jobWithCombiner(1);
        job.set("mapreduce.job.id", JOB);
        job.setNumMapTasks(2);
        job.setBoolean(CamdoopJobConfig.FALLBACK_ENABLED, true);
        job.setInt(CamdoopJobConfig.STALL_TIMEOUT_MS, 60_000);
        List<CamdoopDaemon> daemons = start(3);
        try {
            List<Map<String, Integer>> maps = List.of(Map.of("apple", 1, "pear", 2), Map.of("apple", 3));
            List<TaskCompletionEvent> events = new ArrayList<>();
            for (int m = 0; m < 2; m++) {
                events.add(register(job, daemons, m, attempt(m, 0), maps.get(m), events.size()));
            }
            CamdoopShuffle<Object, Object> shuffle = new CamdoopShuffle<>();
            shuffle.init(context(taskConf(job, daemons.get(2)),
                    TaskAttemptID.forName("attempt_1700000000000_0005_r_000000_1"), umbilical(events)));
            SortedMap<String, Long> sums = sums(shuffle.run());
            shuffle.close();
            assertEquals(WordCounts.reference(maps, 0, 1), sums);
        } finally {
            for (CamdoopDaemon d : daemons) {
                d.close();
            }
        }
    }

    @Test
    void anAttemptNoDaemonHoldsFailsTheAttemptInsteadOfHanging() throws Exception {
        JobConf job = WordCounts.jobWithCombiner(1);
        job.set("mapreduce.job.id", JOB);
        job.setNumMapTasks(2);
        job.setBoolean(CamdoopJobConfig.FALLBACK_ENABLED, false);
        job.setInt(CamdoopJobConfig.STALL_TIMEOUT_MS, 60_000);
        List<CamdoopDaemon> daemons = start(3);
        try {
            List<TaskCompletionEvent> events = new ArrayList<>();
            events.add(register(job, daemons, 0, attempt(0, 0), Map.of("apple", 1), 0));
            // Map 1 succeeded but its registration never reached a daemon (the collector only logged a warning).
            events.add(new TaskCompletionEvent(1, TaskAttemptID.forName(attempt(1, 0)), 1, true,
                    TaskCompletionEvent.Status.SUCCEEDED, "h"));
            CamdoopShuffle<Object, Object> shuffle = new CamdoopShuffle<>();
            shuffle.init(context(taskConf(job, daemons.get(1)),
                    TaskAttemptID.forName("attempt_1700000000000_0005_r_000000_0"), umbilical(events)));
            IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class, () -> {
                RawKeyValueIterator it = shuffle.run();
                while (it.next()) {
                    // drain
                }
            });
            // The root's exactly-once check notices at the end. The root holds its last key group back until then
            // (GenerationOutput), so no record reached the reducer, and with the fallback off the attempt fails.
            assertEquals("Camdoop shuffle of attempt_1700000000000_0005_r_000000_0 failed and camdoop.fallback.enabled"
                    + " is false: job_1700000000000_0005 p0 root vertex 1,0,0: partition 0: map attempts missing:"
                    + " [attempt_1700000000000_0005_m_000001_0]", e.getMessage());
            shuffle.close();
        } finally {
            for (CamdoopDaemon d : daemons) {
                d.close();
            }
        }
    }

    /** A reduce task's status as the seam to the ApplicationMaster: the map outputs it reported lost. */
    private static final class FetchFailures extends org.apache.hadoop.mapred.TaskStatus {
        final java.util.Set<String> reported = java.util.concurrent.ConcurrentHashMap.newKeySet();

        @Override
        public boolean getIsMap() {
            return false;
        }

        @Override
        public void addFetchFailedMap(TaskAttemptID map) {
            reported.add(map.toString());
        }
    }

    /**
     * A daemon holding a map output dies while the reducer is in the middle of the stream. The root pauses the
     * shuffle; the reduce task reports the output lost, and the ApplicationMaster (this test's umbilical) runs the map
     * again on another server once it hears of it; the task names the new attempt, and the shuffle resumes after the
     * last key the reducer holds (the job's maps are declared deterministic). The reducer sees every key exactly once,
     * each with the sum over both maps, and no attempt fails.
     */
    @Test
    void aMapOutputLostMidStreamIsReplacedByItsMapsNewAttemptAndTheShuffleResumes() throws Exception {
        JobConf job = WordCounts.jobWithCombiner(1);
        job.set("mapreduce.job.id", JOB);
        job.setNumMapTasks(2);
        job.setBoolean(CamdoopJobConfig.FALLBACK_ENABLED, false);
        job.setBoolean(CamdoopJobConfig.DETERMINISTIC_MAPS, true);
        job.setInt(CamdoopJobConfig.STALL_TIMEOUT_MS, 60_000);
        job.setInt(CamdoopJobConfig.EVENTS_POLL_MS, 20);
        List<CamdoopDaemon> daemons = start(3, littleInFlight());
        try {
            List<Map<String, Integer>> maps = List.of(manyWords(1), manyWords(2));
            List<TaskCompletionEvent> events = java.util.Collections.synchronizedList(new ArrayList<>());
            events.add(register(job, daemons, 0, attempt(0, 0), maps.get(0), 0));
            events.add(register(job, daemons, 2, attempt(1, 0), maps.get(1), 1));
            FetchFailures status = new FetchFailures();
            java.util.concurrent.atomic.AtomicBoolean rerun = new java.util.concurrent.atomic.AtomicBoolean();
            TaskUmbilicalProtocol am = umbilical(events, () -> {
                // What the ApplicationMaster does once the reducers report a map's output lost: the attempt becomes
                // obsolete and the map runs again, here on server 0.
                if (status.reported.contains(attempt(1, 0)) && rerun.compareAndSet(false, true)) {
                    events.add(new TaskCompletionEvent(events.size(), TaskAttemptID.forName(attempt(1, 0)), 1, true,
                            TaskCompletionEvent.Status.OBSOLETE, "h"));
                    try {
                        events.add(register(job, daemons, 0, attempt(1, 1), maps.get(1), events.size()));
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }
            });
            CamdoopShuffle<Object, Object> shuffle = new CamdoopShuffle<>();
            shuffle.init(context(taskConf(job, daemons.get(1)),
                    TaskAttemptID.forName("attempt_1700000000000_0005_r_000000_0"), am, status));
            RawKeyValueIterator it = shuffle.run();
            SortedMap<String, Long> sums = sums(it, 1000);
            daemons.get(2).close(); // with the only copy of map 1's output
            sums(it, Long.MAX_VALUE).forEach((k, v) -> sums.merge(k, v, Long::sum));
            shuffle.close();
            assertEquals(java.util.Set.of(attempt(1, 0)), status.reported);
            org.junit.jupiter.api.Assertions.assertTrue(rerun.get(), "the map never ran again");
            assertEquals(WordCounts.reference(maps, 0, 1), sums);
        } finally {
            for (CamdoopDaemon d : daemons) {
                d.close();
            }
        }
    }

    /**
     * A resume the daemon must not take: a "new attempt" of another map (its output would be counted for the lost
     * one's), or a proof that does not cover the new set of map attempts. The daemon fails the shuffle, saying why,
     * instead of resuming it. And a paused shuffle aborted at its root while the task waits for the re-run maps: the
     * task hears the abort's reason within a second or so, not at the end of the pause timeout.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"another map", "stale proof", "aborted while paused"})
    void aPausedShuffleFailsWithTheReasonOnAForgedResumeOrAnAbort(String forgery) throws Exception {
        JobConf job = WordCounts.jobWithCombiner(1);
        job.set("mapreduce.job.id", JOB);
        job.setNumMapTasks(2);
        List<CamdoopDaemon> daemons = start(3, littleInFlight());
        try {
            Map<String, Integer> counts = manyWords(1);
            register(job, daemons, 0, attempt(0, 0), counts, 0);
            register(job, daemons, 2, attempt(1, 0), counts, 1);
            java.util.TreeSet<String> attempts = new java.util.TreeSet<>(List.of(attempt(0, 0), attempt(1, 0)));
            // The reduce task's session with its daemon (it registers the job), then the local protocol by hand.
            try (DaemonSession session = DaemonSession.open(taskConf(job, daemons.get(1)))) {
                org.camdoop.shuffle.client.DaemonClient c = session.client();
                c.startShuffle(JOB, 0, 0, org.camdoop.shuffle.protocol.ShuffleMode.CAMDOOP,
                        org.camdoop.torus.trees.TreeChoice.SIX, attempts, nonce -> proof(nonce, attempts));
                c.streamTimeout(30_000); // a daemon that keeps silent fails the test rather than hang it
                org.junit.jupiter.api.Assertions.assertInstanceOf(StreamItem.Chunk.class, c.next());
                daemons.get(2).close(); // with the only copy of map 1's output
                StreamItem n;
                do {
                    n = c.next();
                } while (n instanceof StreamItem.Chunk);
                StreamItem.Paused paused = org.junit.jupiter.api.Assertions.assertInstanceOf(StreamItem.Paused.class, n);
                assertEquals(List.of(attempt(1, 0)), paused.lost());
                if (forgery.equals("aborted while paused")) {
                    daemons.get(1).service().abort(new org.camdoop.shuffle.protocol.ShuffleSpec(
                            org.camdoop.shuffle.protocol.ShuffleKeys.jobKey(JOB), JOB, 0, 0,
                            new org.camdoop.torus.topology.Coord(1, 0, 0),
                            org.camdoop.shuffle.protocol.ShuffleMode.CAMDOOP, org.camdoop.torus.trees.TreeChoice.SIX,
                            attempts), "the operator stopped it", true);
                    assertEquals(new StreamItem.Failed("the operator stopped it"), c.next());
                    return;
                }
                String replacement = forgery.equals("another map") ? attempt(0, 1) : attempt(1, 1);
                register(job, daemons, 0, replacement, counts, 2);
                java.util.TreeSet<String> now = new java.util.TreeSet<>(List.of(attempt(0, 0), replacement));
                byte[] proof = proof(paused.nonce(), forgery.equals("stale proof") ? attempts : now);
                c.resumeShuffle(new TreeMap<>(Map.of(attempt(1, 0), replacement)), proof);
                do {
                    n = c.next();
                } while (n instanceof StreamItem.Chunk);
                String why = forgery.equals("another map")
                        ? "malformed RESUME_SHUFFLE: it replaces " + attempt(1, 0) + " by " + attempt(0, 1)
                                + ", which is not another attempt of the same map"
                        : "shuffle of " + JOB + " partition 0 refused: bad job token proof";
                assertEquals(new StreamItem.Failed("shuffle " + JOB + " partition 0 attempt 0 -> root 1,0,0 (camdoop,"
                        + " six trees, 2 map attempts) lost the outputs of map attempts [" + attempt(1, 0) + "] and"
                        + " cannot resume: " + why), n);
            }
        } finally {
            for (CamdoopDaemon d : daemons) {
                d.close();
            }
        }
    }

    /**
     * Daemons with little in flight, so that a shuffle cannot end while its reducer reads nothing (a death then comes
     * mid-stream), and quick to declare a daemon failed.
     */
    private static Configuration littleInFlight() {
        Configuration c = new Configuration(false);
        c.set("camdoop.transport.buffer.max.per.stream", "2");
        c.set("camdoop.daemon.readahead.bytes", "0");
        c.set("camdoop.daemon.root.buffer.chunks", "2");
        c.set("camdoop.transport.failure.timeout.ms", "1000");
        return c;
    }

    /** A map's word counts: 200,000 words, each counted {@code count} times (a few MB of map output). */
    private static Map<String, Integer> manyWords(int count) {
        Map<String, Integer> counts = new java.util.HashMap<>();
        for (int w = 0; w < 200_000; w++) {
            counts.put(String.format("word%07d", w), count);
        }
        return counts;
    }

    private static byte[] proof(byte[] nonce, java.util.SortedSet<String> attempts) {
        return org.camdoop.shuffle.protocol.JobTokenProof.forShuffle(SECRET, JOB, 0, 0,
                org.camdoop.shuffle.protocol.ShuffleCodes.code(org.camdoop.shuffle.protocol.ShuffleMode.CAMDOOP),
                org.camdoop.shuffle.protocol.ShuffleCodes.code(org.camdoop.torus.trees.TreeChoice.SIX), nonce,
                attempts);
    }

    /** Writes a map attempt's output and registers it as the collector does; returns its SUCCEEDED event. */
    private TaskCompletionEvent register(JobConf job, List<CamdoopDaemon> daemons, int server, String attempt,
            Map<String, Integer> counts, int eventId) throws IOException {
        CamdoopDaemon daemon = daemons.get(server);
        NodeManagerDirs.writeWordCounts(job, localDir(server), JOB, attempt, counts);
        CamdoopMapOutputCollector.register(taskConf(job, daemon),
                new MapOutput(JOB, attempt, job.getNumReduceTasks()));
        TaskAttemptID id = TaskAttemptID.forName(attempt);
        return new TaskCompletionEvent(eventId, id, id.getTaskID().getId(), true,
                TaskCompletionEvent.Status.SUCCEEDED, "http://h:13562");
    }

    private static TaskUmbilicalProtocol umbilical(List<TaskCompletionEvent> events) {
        return umbilical(events, () -> { });
    }

    /** An umbilical serving {@code events}; {@code beforeEachPoll} runs before each read of them. */
    private static TaskUmbilicalProtocol umbilical(List<TaskCompletionEvent> events, Runnable beforeEachPoll) {
        return (TaskUmbilicalProtocol) Proxy.newProxyInstance(PluginsOnDaemonsTest.class.getClassLoader(),
                new Class<?>[] {TaskUmbilicalProtocol.class}, (p, m, args) -> {
                    if (m.getName().equals("getMapCompletionEvents")) {
                        beforeEachPoll.run();
                        int from = (Integer) args[1];
                        List<TaskCompletionEvent> batch = events.subList(Math.min(from, events.size()), events.size());
                        return new MapTaskCompletionEventsUpdate(batch.toArray(new TaskCompletionEvent[0]), false);
                    }
                    throw new UnsupportedOperationException(m.getName());
                });
    }

    private static ShuffleConsumerPlugin.Context<Object, Object> context(JobConf job, TaskAttemptID reduce,
            TaskUmbilicalProtocol umbilical) throws IOException {
        return context(job, reduce, umbilical, null);
    }

    private static ShuffleConsumerPlugin.Context<Object, Object> context(JobConf job, TaskAttemptID reduce,
            TaskUmbilicalProtocol umbilical, org.apache.hadoop.mapred.TaskStatus status) throws IOException {
        Counters.Counter c = new Counters().findCounter("test", "c");
        return new ShuffleConsumerPlugin.Context<>(reduce, job, FileSystem.getLocal(job), umbilical, null,
                Reporter.NULL, null, null, null, c, c, c, c, c, c, status, new Progress(), new Progress(), null, null,
                null);
    }
}
