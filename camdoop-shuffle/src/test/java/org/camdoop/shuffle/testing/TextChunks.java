package org.camdoop.shuffle.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparator;
import org.camdoop.shuffle.records.RecordLayout;

/** Chunks of records written as "key=value" strings: Text keys, raw ASCII values, in IFile layout. */
public final class TextChunks {

    /** Text's raw order. */
    @SuppressWarnings("unchecked")
    public static final RawComparator<Object> ORDER = (RawComparator<Object>) (RawComparator<?>)
            WritableComparator.get(Text.class);

    private TextChunks() {
    }

    /** {@code k} serialized as a Text. */
    public static byte[] key(String k) {
        try {
            DataOutputBuffer out = new DataOutputBuffer();
            new Text(k).write(out);
            return Arrays.copyOf(out.getData(), out.getLength());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A chunk of {@code records}, each "key=value". */
    public static byte[] chunk(List<String> records) {
        byte[] out = new byte[64 * 1024];
        int used = 0;
        for (String r : records) {
            String[] kv = r.split("=");
            byte[] k = key(kv[0]);
            byte[] v = kv[1].getBytes(StandardCharsets.US_ASCII);
            used = RecordLayout.writeRecord(out, used, k, 0, k.length, v, 0, v.length);
        }
        return Arrays.copyOf(out, used);
    }
}
