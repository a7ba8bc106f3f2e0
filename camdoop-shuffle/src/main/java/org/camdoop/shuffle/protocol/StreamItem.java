package org.camdoop.shuffle.protocol;

/**
 * One item of a shuffle's merged stream as the reduce side reads it: chunks in order, then exactly one End or Failed;
 * a Paused may come between chunks, after which the stream goes on only once the task resumed it. The daemon's root
 * queue and the task's client both speak it, so neither needs the other's classes.
 */
public sealed interface StreamItem permits StreamItem.Chunk, StreamItem.End, StreamItem.Failed, StreamItem.Paused,
        StreamItem.Timeout {

    /** A chunk of whole records, in order. */
    record Chunk(byte[] bytes, int length) implements StreamItem {
    }

    /** The stream is complete; every expected map attempt was included exactly once. */
    record End(EndOfStream end) implements StreamItem {
    }

    /** The shuffle failed; nothing more will come. */
    record Failed(String reason) implements StreamItem {
    }

    /**
     * The outputs of map attempts {@code lost} died with a server the shuffle had read them from, and the shuffle
     * waits: every record before this item is every record of its keys, the lost attempts' included. The task resumes
     * it with a new attempt of each lost map, proved over {@code nonce} ({@code JobTokenProof.forShuffle} with the
     * new set of map attempts), within {@code waitMs} ms; the stream then goes on after the last key delivered.
     */
    record Paused(java.util.List<String> lost, byte[] nonce, long waitMs) implements StreamItem {
        public Paused {
            lost = java.util.List.copyOf(lost);
            nonce = nonce.clone();
        }

        @Override
        public byte[] nonce() {
            return nonce.clone();
        }
    }

    /** Nothing arrived within the wait. */
    record Timeout() implements StreamItem {
    }
}
