package org.camdoop.shuffle.jobs;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.MapReduceBase;

/**
 * Jars of user classes compiled while the tests run, so the classes exist nowhere on the test class path: a job
 * combiner summing IntWritables (old API), a custom RawComparator sorting Text in reverse, and a combiner whose class
 * initializer throws (proof that a class was never initialized).
 */
final class UserJars {
    static final String SUM_COMBINER = "userjob.SumCombiner";
    static final String REVERSE_COMPARATOR = "userjob.ReverseText";
    static final String BOOM_COMBINER = "userjob.BoomCombiner";
    static final String EXTRA_CLASS = "userjob.Extra";

    private static final Map<String, String> SOURCES = Map.of(
            SUM_COMBINER, """
                    package userjob;
                    import java.io.IOException;
                    import java.util.Iterator;
                    import org.apache.hadoop.io.IntWritable;
                    import org.apache.hadoop.io.Text;
                    import org.apache.hadoop.mapred.*;
                    public class SumCombiner extends MapReduceBase
                            implements Reducer<Text, IntWritable, Text, IntWritable> {
                        public void reduce(Text key, Iterator<IntWritable> values,
                                OutputCollector<Text, IntWritable> out, Reporter reporter) throws IOException {
                            int sum = 0;
                            while (values.hasNext()) {
                                sum += values.next().get();
                            }
                            out.collect(key, new IntWritable(sum));
                        }
                    }
                    """,
            REVERSE_COMPARATOR, """
                    package userjob;
                    import org.apache.hadoop.io.Text;
                    public class ReverseText extends Text.Comparator {
                        public int compare(byte[] b1, int s1, int l1, byte[] b2, int s2, int l2) {
                            return super.compare(b2, s2, l2, b1, s1, l1);
                        }
                    }
                    """,
            BOOM_COMBINER, """
                    package userjob;
                    public class BoomCombiner extends SumCombiner {
                        static {
                            if (true) {
                                throw new IllegalStateException("user code ran");
                            }
                        }
                    }
                    """,
            EXTRA_CLASS, """
                    package userjob;
                    public class Extra {
                    }
                    """);

    private UserJars() {}

    /** Compiles the user classes under {@code work} and jars them into {@code work/user.jar}. */
    static Path build(Path work) throws IOException {
        return org.camdoop.shuffle.testing.CompiledJar.build(work, "user.jar", SOURCES, 0);
    }
}
