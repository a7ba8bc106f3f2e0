package org.camdoop.shuffle.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapOutputFile;
import org.apache.hadoop.mapred.MapTaskCompletionEventsUpdate;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapred.TaskCompletionEvent;
import org.apache.hadoop.mapred.TaskUmbilicalProtocol;
import org.apache.hadoop.util.Progress;
import org.camdoop.shuffle.testing.WordCounts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shuffle consumer plug-in at its true seam, Hadoop's Context: local mode over an embedded torus, fallback off. */
class LocalModeShuffleTest {
    private static final String JOB = "job_1700000000000_0003";

    @TempDir
    Path dir;

    /**
     * The map output files of one map. With {@code index == null}, as an uber task's reducer sees them: Hadoop's
     * {@code RenamedMapOutputFile} (what {@code LocalContainerLauncher} hands the reducer) knows only the output file,
     * and asking it for the index throws {@link UnsupportedOperationException} without a message. Hadoop's
     * {@code LocalFetcher} derives the index from the output file, and so must Camdoop.
     */
    private static MapOutputFile files(org.apache.hadoop.fs.Path out, org.apache.hadoop.fs.Path index) {
        return new org.apache.hadoop.mapred.MROutputFiles() {
            @Override
            public org.apache.hadoop.fs.Path getOutputFile() {
                return out;
            }

            @Override
            public org.apache.hadoop.fs.Path getOutputIndexFile() {
                if (index == null) {
                    throw new UnsupportedOperationException();
                }
                return index;
            }
        };
    }

    private static ShuffleConsumerPlugin.Context<Object, Object> context(JobConf job, TaskAttemptID reduce,
            TaskUmbilicalProtocol umbilical, Map<TaskAttemptID, MapOutputFile> local) throws IOException {
        Counters counters = new Counters();
        Counters.Counter c = counters.findCounter("test", "c");
        return new ShuffleConsumerPlugin.Context<>(reduce, job, FileSystem.getLocal(job), umbilical, null,
                Reporter.NULL, null, null, null, c, c, c, c, c, c, null, new Progress(), new Progress(), null, null,
                local);
    }

    @Test
    void localModeShufflesOverAnEmbeddedTorus() throws Exception {
        int reducers = 2;
        JobConf job = WordCounts.jobWithCombiner(reducers);
        job.set("mapreduce.job.id", JOB);
        Map<TaskAttemptID, MapOutputFile> local = new HashMap<>();
        List<Map<String, Integer>> maps = new ArrayList<>();
        for (int m = 0; m < 5; m++) {
            TaskAttemptID attempt = TaskAttemptID.forName(String.format("attempt_1700000000000_0003_m_%06d_0", m));
            Map<String, Integer> counts = Map.of("apple", m + 1, "pear", 2, "only" + m, 1, "kiwi", 7);
            org.apache.hadoop.fs.Path out = new org.apache.hadoop.fs.Path(dir.resolve(m + ".out").toString());
            org.apache.hadoop.fs.Path index = new org.apache.hadoop.fs.Path(dir.resolve(m + ".out.index").toString());
            WordCounts.write(job, out, index, counts);
            // Odd maps as an uber job's reducer gets them (no index file named), even ones as in LocalJobRunner.
            local.put(attempt, files(out, m % 2 == 1 ? null : index));
            maps.add(counts);
        }
        for (int partition = 0; partition < reducers; partition++) {
            TaskAttemptID reduce = TaskAttemptID.forName(
                    String.format("attempt_1700000000000_0003_r_%06d_0", partition));
            CamdoopShuffle<Object, Object> shuffle = new CamdoopShuffle<>();
            shuffle.init(context(job, reduce, null, local));
            RawKeyValueIterator it = shuffle.run();
            SortedMap<String, Long> sums = new TreeMap<>(
                    (a, b) -> new org.apache.hadoop.io.Text(a).compareTo(new org.apache.hadoop.io.Text(b)));
            while (it.next()) {
                sums.merge(WordCounts.text(it.getKey().getData(), it.getKey().getPosition(),
                        it.getKey().getLength() - it.getKey().getPosition()),
                        (long) WordCounts.intValue(it.getValue().getData(), it.getValue().getPosition(),
                                it.getValue().getLength() - it.getValue().getPosition()), Long::sum);
            }
            assertEquals(1.0f, it.getProgress().getProgress());
            shuffle.close();
            assertEquals(WordCounts.reference(maps, partition, reducers), sums);
        }
    }

    @Test
    void withoutADaemonAndWithoutFallbackTheAttemptFailsSayingWhy() throws Exception {
        JobConf job = WordCounts.jobWithCombiner(1);
        job.set("mapreduce.job.id", JOB);
        job.setNumMapTasks(1);
        job.setBoolean(CamdoopJobConfig.FALLBACK_ENABLED, false);
        job.set("mapreduce.cluster.local.dir", dir.resolve("nowhere").toString());
        job.set("mapreduce.framework.name", "yarn");
        job.set("mapreduce.job.map.output.collector.class", CamdoopMapOutputCollector.class.getName());
        TaskAttemptID map = TaskAttemptID.forName("attempt_1700000000000_0003_m_000000_0");
        TaskUmbilicalProtocol umbilical = (TaskUmbilicalProtocol) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {TaskUmbilicalProtocol.class}, (p, m, args) -> {
                    if (m.getName().equals("getMapCompletionEvents")) {
                        return new MapTaskCompletionEventsUpdate(new TaskCompletionEvent[] {
                            new TaskCompletionEvent(0, map, 0, true, TaskCompletionEvent.Status.SUCCEEDED, "h")},
                                false);
                    }
                    throw new UnsupportedOperationException(m.getName());
                });
        org.apache.hadoop.security.Credentials creds = new org.apache.hadoop.security.Credentials();
        org.apache.hadoop.mapreduce.security.TokenCache.setShuffleSecretKey("s".getBytes(), creds);
        job.getCredentials().addAll(creds);
        TaskAttemptID reduce = TaskAttemptID.forName("attempt_1700000000000_0003_r_000000_0");
        CamdoopShuffle<Object, Object> shuffle = new CamdoopShuffle<>();
        shuffle.init(context(job, reduce, umbilical, null));
        IOException e = assertThrows(IOException.class, shuffle::run);
        assertEquals("Camdoop shuffle of " + reduce + " failed and camdoop.fallback.enabled is false: no Camdoop"
                + " daemon found: camdoop.daemon.local.socket unset, no camdoop/daemon.socket owned by the daemon's user"
                + " in [" + dir.resolve("nowhere") + "]", e.getMessage());
        shuffle.close();
    }
}
