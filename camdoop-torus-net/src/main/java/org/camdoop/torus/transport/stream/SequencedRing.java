package org.camdoop.torus.transport.stream;

import io.netty.buffer.ByteBuf;

/**
 * Buffers of one stream indexed by sequence number, for a contiguous range {@code [first, last]}: appended at the
 * tail, dropped from the head when acknowledged, read anywhere (a resend starts in the middle). Grows by doubling; no
 * allocation once warmed up.
 *
 * <p>Not thread-safe: owned by the {@link OutboundStream} lock.
 */
final class SequencedRing {

    private ByteBuf[] slots = new ByteBuf[8];
    private long first = 1;
    private long last;

    void append(long seq, ByteBuf buf) {
        if (seq != last + 1) {
            throw new IllegalStateException("sequence " + seq + " does not follow " + last);
        }
        if (seq - first + 1 > slots.length) {
            grow();
        }
        slots[index(seq)] = buf;
        last = seq;
    }

    ByteBuf get(long seq) {
        return seq >= first && seq <= last ? slots[index(seq)] : null;
    }

    /** Releases every buffer up to and including {@code seq}; returns the summed readable bytes released. */
    long releaseThrough(long seq) {
        long bytes = 0;
        while (first <= seq && first <= last) {
            int i = index(first);
            bytes += slots[i].readableBytes();
            slots[i].release();
            slots[i] = null;
            first++;
        }
        if (first > last) {
            first = Math.max(first, seq + 1);
            last = first - 1;
        }
        return bytes;
    }

    void releaseAll() {
        releaseThrough(last);
    }

    long last() {
        return last;
    }

    int size() {
        return (int) (last - first + 1);
    }

    private int index(long seq) {
        return (int) (seq & (slots.length - 1));
    }

    private void grow() {
        ByteBuf[] bigger = new ByteBuf[slots.length * 2];
        for (long s = first; s <= last; s++) {
            bigger[(int) (s & (bigger.length - 1))] = slots[index(s)];
        }
        slots = bigger;
    }
}
