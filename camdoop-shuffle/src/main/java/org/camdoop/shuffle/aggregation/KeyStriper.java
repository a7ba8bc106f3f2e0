package org.camdoop.shuffle.aggregation;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.camdoop.shuffle.records.RawBytes;

/**
 * Assigns every key to one of {@code stripes} stripes (one per tree), the same way on every server: stripe =
 * floorMod({@link #hash}(raw key bytes), stripes), a hash that reads the key eight bytes at a time (little-endian words,
 * each multiplied in, then MurmurHash3's 64-bit finalizer; a key of 16 bytes costs two multiplications where
 * {@code WritableComparator.hashBytes} took sixteen dependent steps). The hash covers the serialized key bytes, so it
 * never depends on the JVM, the default charset or the key class's {@code hashCode()}. Every daemon of a cluster must
 * run the same version of it: daemons that striped differently would still give the right output (the root merges all
 * stripes) but would combine those keys only at the root.
 *
 * <p>Keys the job's comparator calls equal but whose bytes differ may land in different stripes; the result stays
 * correct (the root merges all stripes) but they are combined only at the root.
 *
 * <p>Immutable and thread-safe.
 */
public final class KeyStriper {
    private static final VarHandle LITTLE_ENDIAN_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private final int stripes;

    /** A striper over {@code stripes} stripes (at least one). */
    public KeyStriper(int stripes) {
        if (stripes < 1) {
            throw new IllegalArgumentException("stripe count must be at least 1: " + stripes);
        }
        this.stripes = stripes;
    }

    public int stripes() {
        return stripes;
    }

    /** The stripe of the key {@code bytes[offset, offset + length)}. */
    public int stripeOf(byte[] bytes, int offset, int length) {
        return Math.floorMod(hash(bytes, offset, length), stripes);
    }

    /** The hash of {@code bytes[offset, offset + length)} (see the class comment). */
    static int hash(byte[] bytes, int offset, int length) {
        long h = 0x9E3779B97F4A7C15L ^ length;
        int i = 0;
        for (; i + Long.BYTES <= length; i += Long.BYTES) {
            h = (h ^ (long) LITTLE_ENDIAN_LONG.get(bytes, offset + i)) * 0xFF51AFD7ED558CCDL;
            h ^= h >>> 29;
        }
        h = (h ^ tail(bytes, offset + i, length - i, offset + length)) * 0xC4CEB9FE1A85EC53L;
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        return (int) (h ^ (h >>> 32));
    }

    /**
     * The last {@code rem} (0-7) bytes of a key, {@code bytes[from, end)}, as a little-endian word. One word read and a
     * mask where the array has eight bytes from {@code from} (nearly always: keys sit in larger buffers); a byte loop
     * only for a short key at the very end of a short array. The byte loop's trip count varies with the key's length, so
     * its branch was mispredicted on nearly every key of mixed lengths.
     */
    private static long tail(byte[] bytes, int from, int rem, int end) {
        if (rem == 0) {
            return 0;
        }
        if (from <= bytes.length - Long.BYTES) {
            return (long) LITTLE_ENDIAN_LONG.get(bytes, from) & ((1L << (rem << 3)) - 1);
        }
        if (end >= Long.BYTES) {
            return (long) LITTLE_ENDIAN_LONG.get(bytes, end - Long.BYTES) >>> ((Long.BYTES - rem) << 3);
        }
        long tail = 0;
        for (int j = 0; j < rem; j++) {
            tail |= (bytes[from + j] & 0xFFL) << (8 * j);
        }
        return tail;
    }

    /** The stripe of a key view. */
    public int stripeOf(RawBytes key) {
        return stripeOf(key.array(), key.offset(), key.length());
    }

    /** The records of {@code source} whose keys fall in {@code stripe}, as a filtered view (nothing is copied). */
    public SortedRun stripe(SortedRun source, int stripe) {
        if (stripe < 0 || stripe >= stripes) {
            throw new IllegalArgumentException("stripe " + stripe + " not in [0, " + stripes + ")");
        }
        return new StripeFilterRun(source, this, stripe);
    }

    /**
     * One filtered view per stripe, each over its own cursor on {@code source}, so each tree reads at its own pace and
     * no stripe has to buffer records on behalf of a slower one (the price is one sequential read of the source per
     * stripe, which the page cache mostly absorbs).
     */
    public List<SortedRun> split(RunSource source) throws IOException {
        List<SortedRun> views = new ArrayList<>(stripes);
        try {
            for (int s = 0; s < stripes; s++) {
                views.add(stripe(source.open(), s));
            }
        } catch (IOException | RuntimeException e) {
            for (SortedRun view : views) {
                try {
                    view.close();
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
        return views;
    }

    /** Passes through only the records of one stripe; order is preserved because it only drops records. */
    private static final class StripeFilterRun implements SortedRun {
        private final SortedRun source;
        private final KeyStriper striper;
        private final int stripe;

        StripeFilterRun(SortedRun source, KeyStriper striper, int stripe) {
            this.source = source;
            this.striper = striper;
            this.stripe = stripe;
        }

        @Override
        public Advance advance() throws IOException {
            while (true) {
                Advance step = source.advance();
                if (step != Advance.RECORD || striper.stripeOf(source.key()) == stripe) {
                    return step;
                }
            }
        }

        @Override
        public RawBytes key() {
            return source.key();
        }

        @Override
        public RawBytes value() {
            return source.value();
        }

        @Override
        public void close() throws IOException {
            source.close();
        }
    }
}
