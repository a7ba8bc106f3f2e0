package org.camdoop.bench.micro;

import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;
import org.camdoop.shuffle.aggregation.JobAggregationSpec;

/** The job the merge benchmarks aggregate for: the paper's word count (Text keys, IntWritable 1, IntSumReducer). */
final class WordCountJob {
    private WordCountJob() {}

    /**
     * The engine's view of the job, with Hadoop's {@code IntSumReducer} as the new-API combiner (what the shuffle
     * benchmark and the paper's workload use). {@link JobAggregationSpec#withoutCombiner()} gives the merge-only job.
     */
    static JobAggregationSpec spec() {
        JobConf job = new JobConf(false);
        job.setMapOutputKeyClass(Text.class);
        job.setMapOutputValueClass(IntWritable.class);
        job.setClass(MRJobConfig.COMBINE_CLASS_ATTR, IntSumReducer.class, Reducer.class);
        return JobAggregationSpec.fromJob(job);
    }
}
