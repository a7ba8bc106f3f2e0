package org.camdoop.shuffle.aggregation;

import java.io.EOFException;
import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.io.serializer.Deserializer;
import org.apache.hadoop.io.serializer.WritableSerialization;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;
import org.apache.hadoop.mapreduce.lib.reduce.LongSumReducer;

/**
 * Hadoop's own {@link IntSumReducer} and {@link LongSumReducer} (new API, these exact classes) run without Hadoop's
 * reduce machinery, with output identical byte for byte to {@link NewApiCombiner}'s. Why that holds, step by step, for
 * what {@code Reducer.run} over a {@code ReduceContextImpl} does with these two classes:
 * <ul>
 *   <li>groups: Hadoop starts a new {@code reduce} call where the grouping comparator says the next record's key
 *       differs from the current record's; so does {@link #combine}, with the same comparator on the same bytes;</li>
 *   <li>values: each value is deserialized by {@link WritableSerialization} (checked: the job's serialization for the
 *       value class), i.e. {@code readInt}/{@code readLong} of the value's first 4/8 bytes, which is what
 *       {@link WritableComparator#readInt}/{@link WritableComparator#readLong} compute; a shorter value fails with
 *       {@link EOFException} as {@code DataInputStream} does; the sum wraps on overflow in both;</li>
 *   <li>key: the reducer writes the key object as it stands after the value loop, which the context re-deserialized
 *       from every record, i.e. the group's <em>last</em> key; here it is deserialized once from those same bytes with
 *       the job's deserializer and written with the job's serializer ({@link RecordSerializer}), as the context's
 *       writer would;</li>
 *   <li>value out: an {@link IntWritable}/{@link LongWritable} holding the sum, through the same serializer;</li>
 *   <li>{@link Text} keys (under {@link WritableSerialization}) skip even that: {@code Text.readFields} reads a vint
 *       length and that many bytes, {@code Text.write} writes the length as a canonical vint and the bytes, so when the
 *       key's bytes are exactly a canonical vint plus that many bytes (checked per group) writing it back gives the
 *       same bytes, and they are copied as they are; the value is then the 4 or 8 big-endian bytes
 *       {@code IntWritable.write}/{@code LongWritable.write} produce;</li>
 *   <li>setup and cleanup of these classes are {@code Reducer}'s empty ones, and their instances hold no other state;
 *       the context's input counters are kept in no report (see {@link NewApiCombiner}).</li>
 * </ul>
 * Subclasses, other value classes or another serialization take the general path. Single-threaded.
 */
final class SummingCombiner implements CombinerFunction {
    private final boolean longs;
    private final KeyOrder grouping;
    private final RecordSerializer serializer;
    private final Deserializer<Object> keyDeserializer;
    /** Text keys under WritableSerialization: canonical key bytes are copied (see the class comment). */
    private final boolean rawTextKeys;
    private final byte[] rawValue = new byte[8];
    private final DataInputBuffer keyInput = new DataInputBuffer();
    private final IntWritable intResult = new IntWritable();
    private final LongWritable longResult = new LongWritable();
    private byte[] lastKey = new byte[64];
    private int lastKeyLength;
    private Object key;

    private SummingCombiner(boolean longs, JobAggregationSpec spec, Deserializer<Object> keyDeserializer)
            throws IOException {
        this.longs = longs;
        this.rawTextKeys = spec.keyClass() == Text.class
                && (Object) spec.serializationFactory().getSerialization(Text.class) instanceof WritableSerialization;
        this.grouping = KeyOrder.of(spec.combinerGroupingComparator());
        this.serializer = new RecordSerializer(spec);
        this.keyDeserializer = keyDeserializer;
        keyDeserializer.open(keyInput);
    }

    /** The fast path for {@code combinerClass}, if it is one of the two summing reducers on their own value class. */
    @SuppressWarnings("unchecked")
    static Optional<SummingCombiner> forClass(Class<?> combinerClass, JobAggregationSpec spec) throws IOException {
        boolean ints = combinerClass == IntSumReducer.class && spec.valueClass() == IntWritable.class;
        boolean longs = combinerClass == LongSumReducer.class && spec.valueClass() == LongWritable.class;
        if (!ints && !longs) {
            return Optional.empty();
        }
        if (!(spec.serializationFactory().getSerialization(spec.valueClass()) instanceof WritableSerialization)) {
            return Optional.empty();
        }
        Deserializer<Object> keys = spec.serializationFactory().getDeserializer((Class<Object>) spec.keyClass());
        if (keys == null) {
            return Optional.empty();
        }
        return Optional.of(new SummingCombiner(longs, spec, keys));
    }

    @Override
    public void combine(RawKeyValueIterator input, RecordBatch output) throws IOException {
        boolean inGroup = false;
        long sum = 0;
        while (input.next()) {
            DataInputBuffer k = input.getKey();
            int keyOffset = k.getPosition();
            int keyLength = k.getLength() - keyOffset;
            if (inGroup && grouping.compare(lastKey, 0, lastKeyLength, k.getData(), keyOffset, keyLength) != 0) {
                emitGroup(lastKey, lastKeyLength, sum, output);
                sum = 0;
            }
            inGroup = true;
            if (lastKey.length < keyLength) {
                lastKey = new byte[Math.max(keyLength, 2 * lastKey.length)];
            }
            System.arraycopy(k.getData(), keyOffset, lastKey, 0, keyLength);
            lastKeyLength = keyLength;
            DataInputBuffer v = input.getValue();
            int valueOffset = v.getPosition();
            sum += valueOf(v.getData(), valueOffset, v.getLength() - valueOffset);
        }
        if (inGroup) {
            emitGroup(lastKey, lastKeyLength, sum, output);
        }
    }

    /** The value {@code b[offset, offset + length)} as the reducer reads it: its first 4 or 8 bytes, big-endian. */
    long valueOf(byte[] b, int offset, int length) throws EOFException {
        if (length < (longs ? 8 : 4)) {
            throw new EOFException("combiner value of " + length + " bytes is not a "
                    + (longs ? "LongWritable" : "IntWritable"));
        }
        return longs ? WritableComparator.readLong(b, offset) : WritableComparator.readInt(b, offset);
    }

    /**
     * Appends what the reducer writes for a group: its last key {@code groupKey[0, groupKeyLength)}, and {@code sum}.
     * Returns where in {@code output} the key was copied as it is, followed by the {@link #valueBytes()} of the sum, or
     * -1 if the key was serialized anew.
     */
    int emitGroup(byte[] groupKey, int groupKeyLength, long sum, RecordBatch output) throws IOException {
        if (rawTextKeys && isCanonicalText(groupKey, groupKeyLength)) {
            int valueLength = longs ? 8 : 4;
            for (int i = 0; i < valueLength; i++) {
                rawValue[i] = (byte) (sum >>> (8 * (valueLength - 1 - i)));
            }
            return output.append(groupKey, 0, groupKeyLength, rawValue, 0, valueLength);
        }
        keyInput.reset(groupKey, 0, groupKeyLength);
        key = keyDeserializer.deserialize(key);
        if (longs) {
            longResult.set(sum);
            serializer.write(key, longResult, output);
        } else {
            intResult.set((int) sum);
            serializer.write(key, intResult, output);
        }
        return -1;
    }

    /** Bytes of a sum as written: 8 for {@code LongWritable}, 4 for {@code IntWritable}. */
    int valueBytes() {
        return longs ? 8 : 4;
    }

    /** Whether {@code key[0, length)} is exactly what {@code Text.write} would write for the text it holds. */
    private static boolean isCanonicalText(byte[] key, int length) throws IOException {
        if (length == 0) {
            return false;
        }
        int size = WritableUtils.decodeVIntSize(key[0]);
        if (size > length) {
            return false;
        }
        long textLength = WritableComparator.readVLong(key, 0);
        return textLength >= 0 && WritableUtils.getVIntSize(textLength) == size && size + textLength == length;
    }
}
