package org.camdoop.shuffle.aggregation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparator;
import org.junit.jupiter.api.Test;

/** A resumed run skips exactly the keys at or before the resume key, and stops comparing once past it. */
class ResumingRunTest {

    private static final List<Records.Raw> RECORDS = List.of(raw("", 1), raw("a", 2), raw("b", 3), raw("b", 4),
            raw("c", 5), raw("d", 6));

    private static Records.Raw raw(String key, int value) {
        return Records.raw(new Text(key), new IntWritable(value));
    }

    @SuppressWarnings("unchecked")
    private static final RawComparator<Object> TEXT = (RawComparator<Object>) (RawComparator<?>)
            WritableComparator.get(Text.class);

    private static List<String> resumed(String after, RawComparator<Object> order) throws IOException {
        RunSource source = () -> new ByteArrayRun(Records.layout(RECORDS));
        return text(Records.drain(ResumingRun.resuming(source, order, Records.bytes(new Text(after))).open()));
    }

    private static List<String> text(List<Records.Raw> records) {
        return records.stream().map(r -> java.util.Arrays.toString(r.key()) + java.util.Arrays.toString(r.value()))
                .toList();
    }

    @Test
    void skipsTheKeysAtOrBeforeTheResumeKey() throws IOException {
        assertEquals(text(RECORDS.subList(4, 6)), resumed("b", TEXT));
        assertEquals(text(RECORDS.subList(4, 6)), resumed("bb", TEXT)); // a key the run does not hold
        assertEquals(text(RECORDS.subList(1, 6)), resumed("", TEXT));   // the empty key is a key
        assertEquals(List.of(), resumed("z", TEXT));
    }

    @Test
    void comparesOnlyUntilTheFirstKeyPastIt() throws IOException {
        AtomicInteger comparisons = new AtomicInteger();
        RawComparator<Object> counting = new RawComparator<>() {
            @Override
            public int compare(byte[] b1, int s1, int l1, byte[] b2, int s2, int l2) {
                comparisons.incrementAndGet();
                return TEXT.compare(b1, s1, l1, b2, s2, l2);
            }

            @Override
            public int compare(Object o1, Object o2) {
                throw new UnsupportedOperationException();
            }
        };
        assertEquals(text(RECORDS.subList(2, 6)), resumed("a", counting));
        assertEquals(3, comparisons.get()); // "", "a", then "b" passes: "b", "c", "d" are not compared
    }
}
