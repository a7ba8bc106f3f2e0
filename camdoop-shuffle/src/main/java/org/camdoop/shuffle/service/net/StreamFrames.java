package org.camdoop.shuffle.service.net;

/**
 * The first byte of every vertex stream payload.
 *
 * <pre>
 * DATA payload:  u8 kind, then bytes
 *   0 WHOLE     a chunk of whole records
 *   1 PART      a piece of a chunk larger than one transport segment (one huge record); more pieces follow
 *   2 LAST_PART the last piece: the pieces concatenated form one chunk
 * END payload:   u8 status, then bytes
 *   0 OK        an {@link org.camdoop.shuffle.protocol.EndOfStream} encoding
 *   1 FAILED    UTF-8 text: why the sending vertex gave up
 * </pre>
 */
final class StreamFrames {

    static final byte WHOLE = 0;
    static final byte PART = 1;
    static final byte LAST_PART = 2;

    static final byte OK = 0;
    static final byte FAILED = 1;

    /** Bytes of framing before the data. */
    static final int HEADER = 1;

    private StreamFrames() {
    }
}
