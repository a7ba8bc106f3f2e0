package org.camdoop.shuffle.aggregation;

import java.io.IOException;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.serializer.Serializer;
import org.camdoop.shuffle.records.RawBytes;

/**
 * Serializes the combiner's output objects back into raw IFile-layout records with the job's serializers (the same
 * steps as {@code IFile.Writer.append(K, V)}), appending them to a {@link RecordBatch}. Single-threaded.
 */
final class RecordSerializer {
    private final DataOutputBuffer scratch = new DataOutputBuffer();
    private final Serializer<Object> keySerializer;
    private final Serializer<Object> valueSerializer;
    private final RawBytes key = new RawBytes();
    private final RawBytes value = new RawBytes();

    @SuppressWarnings("unchecked")
    RecordSerializer(JobAggregationSpec spec) throws IOException {
        keySerializer = spec.serializationFactory().getSerializer((Class<Object>) spec.keyClass());
        valueSerializer = spec.serializationFactory().getSerializer((Class<Object>) spec.valueClass());
        if (keySerializer == null || valueSerializer == null) {
            throw new IOException("no serializer for map output classes " + spec.keyClass().getName() + " / "
                    + spec.valueClass().getName() + " (check io.serializations)");
        }
        keySerializer.open(scratch);
        valueSerializer.open(scratch);
    }

    void write(Object k, Object v, RecordBatch out) throws IOException {
        scratch.reset();
        keySerializer.serialize(k);
        int keyLength = scratch.getLength();
        valueSerializer.serialize(v);
        key.set(scratch.getData(), 0, keyLength);
        value.set(scratch.getData(), keyLength, scratch.getLength() - keyLength);
        out.append(key, value);
    }
}
