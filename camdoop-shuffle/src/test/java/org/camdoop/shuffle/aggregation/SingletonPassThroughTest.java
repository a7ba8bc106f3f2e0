package org.camdoop.shuffle.aggregation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.mapred.JobConf;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The pass-through rule of {@link CombiningRun}: a key group of one record is emitted byte for byte without running the
 * combiner; a group of two or more goes through it. Checked with a combiner whose output shows that it ran (sum plus
 * {@link TestJobs#MARK}), so applying it to a singleton, or skipping it on a larger group, changes the output.
 */
class SingletonPassThroughTest {

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void singletonsPassThroughAndLargerGroupsAreCombined(boolean newApi) throws IOException {
        JobConf job = newApi ? TestJobs.textIntNewMarkingCombiner() : TestJobs.textIntOldMarkingCombiner();
        // Small batches and chunks so groups of both kinds straddle many batch boundaries.
        JobAggregationSpec spec = JobAggregationSpec.fromJob(job).withBufferSizes(512, 256);
        for (MergeStrategy strategy : MergeStrategy.values()) {
            for (double s : new double[] {0.0, 0.5, 1.0}) {
                List<List<Records.Raw>> inputs = Workloads.sRatio(new Random(17), 5, 300, s);
                assertRule(inputs, MergeCombineTest.aggregate(spec, inputs, strategy));
            }
            List<List<Records.Raw>> zipf = Workloads.zipf(new Random(23), 6, 800, 3000, 0.99);
            assertRule(zipf, MergeCombineTest.aggregate(spec, zipf, strategy));
        }
    }

    /**
     * Every key once, in sort order: its lone input record as it was, or (several) their sum plus the mark. Holds for
     * inputs merged whole, where a key group is every record of the key; also used by {@link BlockedRuleTest}.
     */
    static void assertRule(List<List<Records.Raw>> inputs, List<Records.Raw> out) {
        Map<Text, List<Records.Raw>> byKey = new LinkedHashMap<>();
        for (List<Records.Raw> input : inputs) {
            for (Records.Raw r : input) {
                byKey.computeIfAbsent(text(r.key()), k -> new ArrayList<>()).add(r);
            }
        }
        assertEquals(byKey.size(), out.size(), "one output record per key");
        int singletons = 0;
        Text previous = null;
        for (Records.Raw r : out) {
            Text key = text(r.key());
            assertTrue(previous == null || previous.compareTo(key) < 0, "sorted, each key once: " + key);
            previous = key;
            List<Records.Raw> group = byKey.get(key);
            if (group.size() == 1) {
                singletons++;
                assertArrayEquals(group.get(0).value(), r.value(), "singleton " + key + " passed through unchanged");
            } else {
                int sum = TestJobs.MARK + group.stream().mapToInt(g -> intValue(g.value())).sum();
                assertEquals(sum, intValue(r.value()), "group of " + group.size() + " for " + key + " combined");
            }
        }
        assertTrue(singletons > 0 || out.size() < inputs.stream().mapToInt(List::size).sum());
    }

    private static Text text(byte[] raw) {
        Text t = new Text();
        try {
            t.readFields(new java.io.DataInputStream(new java.io.ByteArrayInputStream(raw)));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return t;
    }

    private static int intValue(byte[] raw) {
        return WritableComparator.readInt(raw, 0);
    }
}
