package org.camdoop.shuffle.aggregation;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;

/** Random inputs for the merge: the paper's S-ratio workload and Zipf-skewed keys (unsorted; callers sort). */
final class Workloads {
    private Workloads() {}

    /**
     * {@code inputs} inputs of {@code perInput} Text/IntWritable records each; a fraction {@code s} of every input's keys
     * are unique to it and the rest are shared by all inputs (s = 0: every key in every input; s = 1: all unique).
     */
    static List<List<Records.Raw>> sRatio(Random rnd, int inputs, int perInput, double s) {
        int unique = (int) Math.round(perInput * s);
        List<List<Records.Raw>> all = new ArrayList<>();
        for (int i = 0; i < inputs; i++) {
            List<Records.Raw> records = new ArrayList<>();
            for (int j = 0; j < perInput; j++) {
                String key = j < unique ? "u" + i + "-" + j : "shared-" + j;
                records.add(Records.raw(new Text(key), new IntWritable(1 + rnd.nextInt(10))));
            }
            all.add(records);
        }
        return all;
    }

    /** Text/IntWritable inputs whose keys follow Zipf(exponent) over {@code universe} keys (repeats within an input). */
    static List<List<Records.Raw>> zipf(Random rnd, int inputs, int perInput, int universe, double exponent) {
        double[] cdf = new double[universe];
        double total = 0;
        for (int r = 0; r < universe; r++) {
            total += 1 / Math.pow(r + 1, exponent);
            cdf[r] = total;
        }
        List<List<Records.Raw>> all = new ArrayList<>();
        for (int i = 0; i < inputs; i++) {
            List<Records.Raw> records = new ArrayList<>();
            for (int j = 0; j < perInput; j++) {
                int rank = java.util.Arrays.binarySearch(cdf, rnd.nextDouble() * total);
                rank = rank >= 0 ? rank : -rank - 1;
                records.add(Records.raw(new Text("z" + Math.min(rank, universe - 1)), new IntWritable(1 + rnd.nextInt(5))));
            }
            all.add(records);
        }
        return all;
    }

    /** LongWritable keys and values, keys drawn from {@code universe} (negative keys included). */
    static List<List<Records.Raw>> longs(Random rnd, int inputs, int perInput, int universe) {
        List<List<Records.Raw>> all = new ArrayList<>();
        for (int i = 0; i < inputs; i++) {
            List<Records.Raw> records = new ArrayList<>();
            for (int j = 0; j < perInput; j++) {
                long key = rnd.nextInt(universe) - universe / 2L;
                records.add(Records.raw(new LongWritable(key), new LongWritable(rnd.nextInt(1000))));
            }
            all.add(records);
        }
        return all;
    }
}
