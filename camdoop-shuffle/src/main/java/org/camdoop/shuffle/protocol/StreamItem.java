package org.camdoop.shuffle.protocol;

/**
 * One item of a shuffle's merged stream as the reduce side reads it: chunks in order, then exactly one End or Failed.
 * The daemon's root queue and the task's client both speak it, so neither needs the other's classes.
 */
public sealed interface StreamItem permits StreamItem.Chunk, StreamItem.End, StreamItem.Failed, StreamItem.Timeout {

    /** A chunk of whole records, in order. */
    record Chunk(byte[] bytes, int length) implements StreamItem {
    }

    /** The stream is complete; every expected map attempt was included exactly once. */
    record End(EndOfStream end) implements StreamItem {
    }

    /** The shuffle failed; nothing more will come. */
    record Failed(String reason) implements StreamItem {
    }

    /** Nothing arrived within the wait. */
    record Timeout() implements StreamItem {
    }
}
