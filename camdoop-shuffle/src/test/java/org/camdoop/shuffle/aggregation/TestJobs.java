package org.camdoop.shuffle.aggregation;

import java.io.IOException;
import java.util.Iterator;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapReduceBase;
import org.apache.hadoop.mapred.OutputCollector;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.MRJobConfig;

/** Job configurations and combiners the tests run the engine with, written against Hadoop's two APIs. */
final class TestJobs {
    private TestJobs() {}

    /** Text keys, IntWritable values, no combiner. */
    static JobConf textInt() {
        JobConf job = new JobConf(false);
        job.setMapOutputKeyClass(Text.class);
        job.setMapOutputValueClass(IntWritable.class);
        return job;
    }

    static JobConf textIntOldCombiner() {
        JobConf job = textInt();
        job.setCombinerClass(OldIntSum.class);
        return job;
    }

    static JobConf textIntNewCombiner() {
        JobConf job = textInt();
        job.setClass(MRJobConfig.COMBINE_CLASS_ATTR, NewIntSum.class, org.apache.hadoop.mapreduce.Reducer.class);
        return job;
    }

    /** A combiner whose output shows whether it ran: the sum plus {@link #MARK}, old API. */
    static JobConf textIntOldMarkingCombiner() {
        JobConf job = textInt();
        job.setCombinerClass(OldMarkingSum.class);
        return job;
    }

    /** As {@link #textIntOldMarkingCombiner()} with the new API. */
    static JobConf textIntNewMarkingCombiner() {
        JobConf job = textInt();
        job.setClass(MRJobConfig.COMBINE_CLASS_ATTR, NewMarkingSum.class, org.apache.hadoop.mapreduce.Reducer.class);
        return job;
    }

    /** What the marking combiners add to a group's sum (not a valid combiner: it changes the result by running). */
    static final int MARK = 1_000_000;

    static JobConf textIntReverseOrderCombiner() {
        JobConf job = textIntOldCombiner();
        job.setOutputKeyComparatorClass(ReverseText.class);
        return job;
    }

    static JobConf longLongNewCombiner() {
        JobConf job = new JobConf(false);
        job.setMapOutputKeyClass(LongWritable.class);
        job.setMapOutputValueClass(LongWritable.class);
        job.setClass(MRJobConfig.COMBINE_CLASS_ATTR, NewLongSum.class, org.apache.hadoop.mapreduce.Reducer.class);
        return job;
    }

    /** Summing combiner, old API. */
    public static final class OldIntSum extends MapReduceBase
            implements org.apache.hadoop.mapred.Reducer<Text, IntWritable, Text, IntWritable> {
        @Override
        public void reduce(Text key, Iterator<IntWritable> values, OutputCollector<Text, IntWritable> out,
                Reporter reporter) throws IOException {
            int sum = 0;
            while (values.hasNext()) {
                sum += values.next().get();
            }
            out.collect(key, new IntWritable(sum));
        }
    }

    /** Summing combiner, new API. */
    public static final class NewIntSum extends org.apache.hadoop.mapreduce.Reducer<Text, IntWritable, Text, IntWritable> {
        private final IntWritable result = new IntWritable();

        @Override
        protected void reduce(Text key, Iterable<IntWritable> values, Context context)
                throws IOException, InterruptedException {
            int sum = 0;
            for (IntWritable v : values) {
                sum += v.get();
            }
            result.set(sum);
            context.write(key, result);
        }
    }

    /** Sums and adds {@link #MARK}, old API. */
    public static final class OldMarkingSum extends MapReduceBase
            implements org.apache.hadoop.mapred.Reducer<Text, IntWritable, Text, IntWritable> {
        @Override
        public void reduce(Text key, Iterator<IntWritable> values, OutputCollector<Text, IntWritable> out,
                Reporter reporter) throws IOException {
            int sum = MARK;
            while (values.hasNext()) {
                sum += values.next().get();
            }
            out.collect(key, new IntWritable(sum));
        }
    }

    /** Sums and adds {@link #MARK}, new API. */
    public static final class NewMarkingSum
            extends org.apache.hadoop.mapreduce.Reducer<Text, IntWritable, Text, IntWritable> {
        @Override
        protected void reduce(Text key, Iterable<IntWritable> values, Context context)
                throws IOException, InterruptedException {
            int sum = MARK;
            for (IntWritable v : values) {
                sum += v.get();
            }
            context.write(key, new IntWritable(sum));
        }
    }

    /** Summing combiner over longs, new API. */
    public static final class NewLongSum
            extends org.apache.hadoop.mapreduce.Reducer<LongWritable, LongWritable, LongWritable, LongWritable> {
        @Override
        protected void reduce(LongWritable key, Iterable<LongWritable> values, Context context)
                throws IOException, InterruptedException {
            long sum = 0;
            for (LongWritable v : values) {
                sum += v.get();
            }
            context.write(key, new LongWritable(sum));
        }
    }

    /** Text in descending byte order: a custom RawComparator set with setOutputKeyComparatorClass. */
    public static final class ReverseText extends Text.Comparator {
        @Override
        public int compare(byte[] b1, int s1, int l1, byte[] b2, int s2, int l2) {
            return super.compare(b2, s2, l2, b1, s1, l1);
        }
    }
}
