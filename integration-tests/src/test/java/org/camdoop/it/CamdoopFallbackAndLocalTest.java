package org.camdoop.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.examples.WordCount;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.camdoop.minicluster.MiniClusterResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Camdoop in Hadoop's local mode, and a job whose daemon is unreachable finishing on the stock shuffle. */
class CamdoopFallbackAndLocalTest {

    @Test
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

    @Test
    @Timeout(300)
    void anUnreachableDaemonSendsTheJobToTheStockShuffleAndTheLogSaysWhy(@TempDir Path dir) throws Exception {
        Path in = dir.resolve("in");
        WordCountInput.write(in, 3, 2000, 13);
        Path out = dir.resolve("out");
        Path work = dir.resolve("work");
        // No socket at this path: every task finds no daemon.
        MiniClusterResult r = CamdoopRuns.run(work, false, List.of("wordcount",
                "-Dcamdoop.daemon.local.socket=" + dir.resolve("no-daemon.sock"), in.toString(), out.toString()));
        assertEquals(0, r.exit(), "the job must succeed on the stock shuffle");
        assertEquals(WordCountInput.expectedOutput(in), WordCountInput.actualOutput(out));
        assertEquals(1L, r.counters().getOrDefault("Reduce attempts on the stock shuffle", 0L), r.counters().toString());
        assertTrue(taskLogsContain(work, "not possible, running the stock shuffle"),
                "no reduce task log says why it ran the stock shuffle");
    }

    @Test
    @Timeout(300)
    void aJobWithItsOwnCollectorGoesToTheStockShuffleWithoutAskingTheTorus(@TempDir Path dir) throws Exception {
        Path in = dir.resolve("in");
        WordCountInput.write(in, 3, 2000, 17);
        Path out = dir.resolve("out");
        Path work = dir.resolve("work");
        // The cluster's Camdoop keys, then the job's own collector (a later -D wins): Hadoop's own buffer.
        MiniClusterResult r = CamdoopRuns.run(work, false, List.of("wordcount",
                "-Dmapreduce.job.map.output.collector.class=org.apache.hadoop.mapred.MapTask$MapOutputBuffer",
                in.toString(), out.toString()));
        assertEquals(0, r.exit(), "the job must succeed on the stock shuffle");
        assertEquals(WordCountInput.expectedOutput(in), WordCountInput.actualOutput(out));
        assertEquals(1L, r.counters().getOrDefault("Reduce attempts on the stock shuffle", 0L), r.counters().toString());
        assertEquals(0L, r.counters().getOrDefault("Bytes the map outputs held", 0L), "no map registered with Camdoop");
        assertTrue(taskLogsContain(work, "the job's maps use their own output collector"
                + " org.apache.hadoop.mapred.MapTask$MapOutputBuffer (mapreduce.job.map.output.collector.class), not"
                + " Camdoop's: they registered nothing with the daemons"), "no reduce task log gives the reason");
    }

    private static boolean taskLogsContain(Path work, String text) throws java.io.IOException {
        try (Stream<Path> files = Files.walk(work)) {
            return files.filter(p -> p.getFileName().toString().startsWith("stderr")
                    || p.getFileName().toString().startsWith("syslog")).anyMatch(p -> {
                        try {
                            return Files.readString(p).contains(text);
                        } catch (java.io.IOException e) {
                            return false;
                        }
                    });
        }
    }
}
