package org.camdoop.bench.micro;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.io.RawComparator;
import org.camdoop.workload.KeyStrings;
import org.camdoop.shuffle.records.RecordLayout;

/**
 * Sorted runs of real IFile-layout Text/IntWritable records held in memory: what a vertex merges. Keys are the paper's
 * random 4-28 character strings ({@link KeyStrings}), every value is IntWritable 1, and each run is sorted by the
 * job's RawComparator. A fraction {@code ratioS} of each run's keys is unique to that run and the rest is shared by
 * every run: 0 puts every key in every run (the combiner folds {@code fanIn} records into one), 1 makes every key
 * unique (nothing to fold).
 *
 * @param runs         the runs' bytes, back-to-back records without an EOF marker
 * @param records      records over all runs
 * @param bytes        bytes over all runs (IFile record layout, length headers included, as the engine counts them)
 * @param distinctKeys keys over all runs after combining
 */
record MergeInputs(List<byte[]> runs, long records, long bytes, long distinctKeys) {

    /** IntWritable 1, big-endian. */
    private static final byte[] ONE = {0, 0, 0, 1};

    /**
     * {@code fanIn} runs of {@code recordsPerRun} records each, keys drawn from {@code new KeyStrings(seed)} and
     * sorted by {@code comparator} (the job's sort comparator over serialized Text).
     */
    static MergeInputs generate(int fanIn, int recordsPerRun, double ratioS, long seed,
            RawComparator<Object> comparator) {
        if (fanIn < 1 || recordsPerRun < 1 || !(ratioS >= 0 && ratioS <= 1)) {
            throw new IllegalArgumentException("fan-in " + fanIn + ", records per run " + recordsPerRun + ", S "
                    + ratioS + ": need fan-in >= 1, records >= 1, S in [0, 1]");
        }
        KeyStrings keys = new KeyStrings(seed);
        int unique = (int) Math.round(recordsPerRun * ratioS);
        int shared = recordsPerRun - unique;
        List<byte[]> runs = new ArrayList<>(fanIn);
        long bytes = 0;
        for (int run = 0; run < fanIn; run++) {
            byte[][] serialized = new byte[recordsPerRun][];
            for (int i = 0; i < recordsPerRun; i++) {
                // Shared keys are serials 0..shared-1 in every run; run r's unique keys follow, disjoint per run.
                long serial = i < shared ? i : shared + (long) run * unique + (i - shared);
                serialized[i] = text(keys, serial);
            }
            Arrays.sort(serialized, (a, b) -> comparator.compare(a, 0, a.length, b, 0, b.length));
            int size = 0;
            for (byte[] key : serialized) {
                size += RecordLayout.recordSize(key.length, ONE.length);
            }
            byte[] data = new byte[size];
            int pos = 0;
            for (byte[] key : serialized) {
                pos = RecordLayout.writeRecord(data, pos, key, 0, key.length, ONE, 0, ONE.length);
            }
            runs.add(data);
            bytes += size;
        }
        return new MergeInputs(List.copyOf(runs), (long) fanIn * recordsPerRun, bytes,
                shared + (long) fanIn * unique);
    }

    /** Key {@code serial} serialized as Text: a one-byte vint length (keys are at most 28 bytes), then the characters. */
    private static byte[] text(KeyStrings keys, long serial) {
        byte[] chars = new byte[KeyStrings.MAX_LENGTH];
        int length = keys.write(serial, chars, 0);
        byte[] text = new byte[1 + length];
        text[0] = (byte) length;
        System.arraycopy(chars, 0, text, 1, length);
        return text;
    }
}
