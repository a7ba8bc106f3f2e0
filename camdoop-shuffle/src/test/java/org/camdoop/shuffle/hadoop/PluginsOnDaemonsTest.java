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
        SortedMap<String, Long> sums = new TreeMap<>((a, b) -> new Text(a).compareTo(new Text(b)));
        while (it.next()) {
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
        return (TaskUmbilicalProtocol) Proxy.newProxyInstance(PluginsOnDaemonsTest.class.getClassLoader(),
                new Class<?>[] {TaskUmbilicalProtocol.class}, (p, m, args) -> {
                    if (m.getName().equals("getMapCompletionEvents")) {
                        int from = (Integer) args[1];
                        List<TaskCompletionEvent> batch = events.subList(Math.min(from, events.size()), events.size());
                        return new MapTaskCompletionEventsUpdate(batch.toArray(new TaskCompletionEvent[0]), false);
                    }
                    throw new UnsupportedOperationException(m.getName());
                });
    }

    private static ShuffleConsumerPlugin.Context<Object, Object> context(JobConf job, TaskAttemptID reduce,
            TaskUmbilicalProtocol umbilical) throws IOException {
        Counters.Counter c = new Counters().findCounter("test", "c");
        return new ShuffleConsumerPlugin.Context<>(reduce, job, FileSystem.getLocal(job), umbilical, null,
                Reporter.NULL, null, null, null, c, c, c, c, c, c, null, new Progress(), new Progress(), null, null,
                null);
    }
}
