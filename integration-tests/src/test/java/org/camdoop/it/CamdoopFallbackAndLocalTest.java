package org.camdoop.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.examples.WordCount;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.camdoop.minicluster.MiniClusterResult;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Camdoop in Hadoop's local mode and in an uber job, and jobs that must finish on the stock shuffle (no daemon, their
 * own collector), saying why. The tests run at once, the cluster's jobs on one shared cluster.
 */
// The classes that share the run's mini cluster run first (SharedCamdoopCluster.PerRun).
@Order(SharedCamdoopCluster.CLASS_ORDER)
class CamdoopFallbackAndLocalTest {

    @RegisterExtension
    static final SharedCamdoopCluster.PerRun SHARED = new SharedCamdoopCluster.PerRun();

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    @Timeout(200)
    void localModeWordCountRunsOnAnEmbeddedTorus(@TempDir Path dir) throws Exception {
        Path in = dir.resolve("in");
        WordCountInput.write(in, 3, 2000, 11);
        Configuration conf = new Configuration();
        conf.set("mapreduce.framework.name", "local");
        conf.set("fs.defaultFS", "file:///");
        conf.set("mapreduce.job.map.output.collector.class", "org.camdoop.shuffle.hadoop.CamdoopMapOutputCollector");
        conf.set("mapreduce.job.reduce.shuffle.consumer.plugin.class", "org.camdoop.shuffle.hadoop.CamdoopShuffle");
        // The examples' WordCount classes, configured as its main() does.
        Job job = Job.getInstance(conf, "word count");
        job.setJarByClass(WordCount.class);
        job.setMapperClass(WordCount.TokenizerMapper.class);
        job.setCombinerClass(WordCount.IntSumReducer.class);
        job.setReducerClass(WordCount.IntSumReducer.class);
        job.setOutputKeyClass(Text.class);
        job.setOutputValueClass(IntWritable.class);
        FileInputFormat.addInputPath(job, new org.apache.hadoop.fs.Path(in.toUri()));
        Path out = dir.resolve("out");
        FileOutputFormat.setOutputPath(job, new org.apache.hadoop.fs.Path(out.toUri()));
        assertTrue(job.waitForCompletion(false), "local wordcount failed");
        assertEquals(WordCountInput.expectedOutput(in), WordCountInput.actualOutput(out));
        var camdoop = job.getCounters().getGroup("Camdoop");
        assertEquals(0, camdoop.findCounter("Reduce attempts on the stock shuffle").getValue());
        assertTrue(camdoop.findCounter("Bytes the reducer received").getValue() > 0, "nothing came through Camdoop");
        assertTrue(camdoop.findCounter("Records combined on path").getValue() > 0, "nothing was combined on path");
    }

    /**
     * An uber job (maps and reduce in the ApplicationMaster): its maps register nothing (the ApplicationMaster renames
     * their outputs for the reduce), and its reduce reads them through an embedded torus, as in local mode. Before, it
     * asked Hadoop's renamed map output files for their index, got an UnsupportedOperationException and fell back,
     * logging "null".
     */
    @Test
    @Execution(ExecutionMode.CONCURRENT)
    @Timeout(300)
    void anUberJobsReduceRunsOnAnEmbeddedTorusInTheApplicationMaster(@TempDir Path dir) throws Exception {
        Path in = dir.resolve("in");
        WordCountInput.write(in, 3, 2000, 19);
        Path out = dir.resolve("out");
        MiniClusterResult r = SHARED.cluster().run(false, List.of("wordcount", "-Dmapreduce.job.ubertask.enable=true",
                in.toString(), out.toString()));
        assertEquals(WordCountInput.expectedOutput(in), WordCountInput.actualOutput(out));
        CamdoopRuns.assertWentThroughCamdoop(r);
        assertEquals(3L, r.counters().getOrDefault("NUM_UBER_SUBMAPS", 0L), "the job was not uber: " + r.counters());
        assertEquals(1L, r.counters().getOrDefault("NUM_UBER_SUBREDUCES", 0L), r.counters().toString());
        assertTrue(r.counters().getOrDefault("Records combined on path", 0L) > 0, "nothing was combined on path");
        assertEquals(0L, r.counters().getOrDefault("Bytes the map outputs held", 0L), "an uber map registered");
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    @Timeout(300)
    void anUnreachableDaemonSendsTheJobToTheStockShuffleAndTheLogSaysWhy(@TempDir Path dir) throws Exception {
        // No socket at this path: every task finds no daemon.
        onTheStockShuffle(dir, 13, "-Dcamdoop.daemon.local.socket=" + dir.resolve("no-daemon.sock"),
                "not possible, running the stock shuffle");
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    @Timeout(300)
    void aJobWithItsOwnCollectorGoesToTheStockShuffleWithoutAskingTheTorus(@TempDir Path dir) throws Exception {
        // The cluster's Camdoop keys, then the job's own collector (a later -D wins): Hadoop's own buffer.
        MiniClusterResult r = onTheStockShuffle(dir, 17,
                "-Dmapreduce.job.map.output.collector.class=org.apache.hadoop.mapred.MapTask$MapOutputBuffer",
                "the job's maps use their own output collector org.apache.hadoop.mapred.MapTask$MapOutputBuffer"
                        + " (mapreduce.job.map.output.collector.class), not Camdoop's: they registered nothing with"
                        + " the daemons");
        assertEquals(0L, r.counters().getOrDefault("Bytes the map outputs held", 0L), "no map registered with Camdoop");
    }

    /** Kept on the stock shuffle by design (docs/getting-started.md): the daemons would need the job's key. */
    @Test
    @Execution(ExecutionMode.CONCURRENT)
    @Timeout(300)
    void aJobWithEncryptedIntermediateDataRunsOnTheStockShuffleSayingWhy(@TempDir Path dir) throws Exception {
        MiniClusterResult r = onTheStockShuffle(dir, 23, "-Dmapreduce.job.encrypted-intermediate-data=true",
                "running the stock shuffle: mapreduce.job.encrypted-intermediate-data=true: the daemons do not read"
                        + " encrypted map output (each would need the job's key)");
        assertEquals(0L, r.counters().getOrDefault("Bytes the map outputs held", 0L), "an encrypted map registered");
    }

    /**
     * Runs wordcount with Camdoop configured and {@code setting} added: the job succeeds with the right output, its
     * one reduce ran on the stock shuffle, and a task log says {@code why}.
     */
    private static MiniClusterResult onTheStockShuffle(Path dir, int seed, String setting, String why)
            throws Exception {
        Path in = dir.resolve("in");
        WordCountInput.write(in, 3, 2000, seed);
        Path out = dir.resolve("out");
        MiniClusterResult r = SHARED.cluster().run(false, List.of("wordcount", setting, in.toString(), out.toString()));
        assertEquals(0, r.exit(), "the job must succeed on the stock shuffle");
        assertEquals(WordCountInput.expectedOutput(in), WordCountInput.actualOutput(out));
        assertEquals(1L, r.counters().getOrDefault("Reduce attempts on the stock shuffle", 0L), r.counters().toString());
        assertTrue(SHARED.cluster().taskLogsContain(r, why), "no task log of " + r.jobs() + " says: " + why);
        return r;
    }
}
