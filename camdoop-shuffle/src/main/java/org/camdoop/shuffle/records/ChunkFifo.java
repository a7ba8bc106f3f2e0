package org.camdoop.shuffle.records;

import java.util.Arrays;

/**
 * A first-in first-out queue of chunks, each an array and the length of it in use, kept in two parallel rings so a
 * length is never boxed (a queue of {@code Integer}s allocated one per chunk on the data path). Grows as needed;
 * whoever fills it bounds it. Single-threaded, or guarded by its owner's lock.
 */
public final class ChunkFifo {
    private byte[][] chunks = new byte[8][];
    private int[] lengths = new int[8];
    private int head;
    private int size;

    public boolean isEmpty() {
        return size == 0;
    }

    public int size() {
        return size;
    }

    public void add(byte[] chunk, int length) {
        if (size == chunks.length) {
            grow();
        }
        int at = (head + size) & (chunks.length - 1);
        chunks[at] = chunk;
        lengths[at] = length;
        size++;
    }

    /** The oldest chunk; null when empty. */
    public byte[] peekChunk() {
        return size == 0 ? null : chunks[head];
    }

    /** The oldest chunk's length; call only when not empty. */
    public int peekLength() {
        return lengths[head];
    }

    /** Drops the oldest chunk; call only when not empty. */
    public void remove() {
        chunks[head] = null;
        head = (head + 1) & (chunks.length - 1);
        size--;
    }

    public void clear() {
        Arrays.fill(chunks, null);
        head = 0;
        size = 0;
    }

    private void grow() {
        byte[][] moreChunks = new byte[2 * chunks.length][];
        int[] moreLengths = new int[2 * chunks.length];
        for (int i = 0; i < size; i++) {
            int from = (head + i) & (chunks.length - 1);
            moreChunks[i] = chunks[from];
            moreLengths[i] = lengths[from];
        }
        chunks = moreChunks;
        lengths = moreLengths;
        head = 0;
    }
}
