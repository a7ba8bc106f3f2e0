package org.camdoop.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.lib.HashPartitioner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ServerRecordsTest {
    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void sortsByPartitionThenTextOrderEvenWhenPrefixesTie(int reducers) {
        List<String> keys = new ArrayList<>(List.of("abcdeX", "abcdeA", "abcde", "abcd", "abcdf", "zz", "abcde0",
                "ABCDEFGHIJ", "ABCDEFGHIA", "ABCDE"));
        // Many keys sharing a five-byte prefix, in random order, so the tie-breaking pass has long runs to fix.
        SplittableRandom random = new SplittableRandom(8);
        for (int i = 0; i < 2_000; i++) {
            keys.add("same5" + Long.toString(random.nextLong(1_000_000_000L), 36));
        }
        ServerRecords records = new ServerRecords(reducers);
        for (int i = 0; i < keys.size(); i++) {
            records.add(keys.get(i).getBytes(StandardCharsets.US_ASCII), i);
        }
        records.sort();

        HashPartitioner<Text, IntWritable> partitioner = new HashPartitioner<>();
        List<String> expected = new ArrayList<>(keys);
        expected.sort(Comparator.comparingInt((String k) -> partitioner.getPartition(new Text(k), null, reducers))
                .thenComparing((a, b) -> new Text(a).compareTo(new Text(b))));
        List<String> got = new ArrayList<>();
        for (int pos = 0; pos < records.size(); pos++) {
            String key = new String(records.keyBytes(), records.keyOffsetAt(pos), records.keyLengthAt(pos),
                    StandardCharsets.US_ASCII);
            got.add(key);
            assertEquals(partitioner.getPartition(new Text(key), null, reducers), records.partitionAt(pos));
            assertEquals(keys.indexOf(key), records.valueAt(pos), "the value travels with its key");
        }
        assertEquals(expected, got);
    }
}
