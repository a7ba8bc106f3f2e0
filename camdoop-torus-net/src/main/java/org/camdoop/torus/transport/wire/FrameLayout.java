package org.camdoop.torus.transport.wire;

/**
 * Byte offsets of every field, counted from the first byte after the 4-byte length prefix (the frame the decoder
 * emits). The full tables are in {@link FrameDecoder} and {@code docs/protocol.md}; this class is the single source the
 * encoders and readers use.
 */
public final class FrameLayout {

    /**
     * Protocol version spoken by this build; a peer with another version is refused. Version 2: the dialer proves the
     * cluster secret first (version 1 had the acceptor prove first). Version 3: receivers batch their announcements
     * and senders flag DATA frames that need a prompt acknowledgement ({@link #FLAG_ACK_REQUESTED}); a version 2 sender
     * never flags, and could wait forever on a version 3 receiver. Version 5: HELLO carries the sender's incarnation
     * ({@link #HELLO_INCARNATION}), which its proof covers; the failure views name servers and links by incarnation.
     * Version 6: each AUTH proof also covers its verifier's coordinate and incarnation, so a proof relayed to another
     * daemon fails there; the frames are those of version 5, so the version number is what tells a version 5 daemon
     * apart (its proofs would otherwise fail as a bad cluster secret). Version 7: a shuffle's START may carry a tree
     * repair (the shuffle service's message, trailing bytes a version 6 daemon refuses after acknowledging the START,
     * which would leave the repair's trees waiting); the link frames are those of version 6. Version 8: a repair
     * rebuilds the failed vertex's subtrees, named in its START, after the cut of its parents (the service's CUT and
     * CUT_DONE, which a version 7 daemon drops); the link frames are those of version 7.
     */
    public static final int PROTOCOL_VERSION = 8;

    public static final int LENGTH_FIELD = 4;

    public static final int TYPE = 0;
    public static final int FLAGS = 1;
    /**
     * Flag of a DATA frame: the sender holds at least half of its buffers awaiting acknowledgement; the receiver
     * acknowledges with its next announcement instead of waiting for a batch (see {@code CreditAnnouncer}).
     */
    public static final int FLAG_ACK_REQUESTED = 0x01;
    /**
     * Flag of a CREDIT frame: the receiver dropped a frame that skipped ahead of the next it expects (frames before it
     * were lost on the way: in the transit queue of a hop whose connection dropped, or at a hop's transit cap); the
     * sender resends everything after {@code acked} at once instead of waiting for its retransmission timer, at most
     * once per window of progress. A receiver sets it once per acknowledged position. Builds before it ignore the flags
     * of CREDIT (the timer repairs), so it needs no new protocol version.
     */
    public static final int FLAG_GAP = 0x02;
    /** Type byte and flags byte: the header every frame has. */
    public static final int TYPE_HEADER = 2;

    // Routed header, after the type header.
    public static final int SRC = 2;
    public static final int DST = 6;
    public static final int HOPS = 10;
    public static final int JOB = 11;
    public static final int PARTITION = 19;
    public static final int TREE = 23;
    public static final int VERTEX = 24;
    public static final int ROUTED_HEADER = 28;

    // DATA and END bodies.
    public static final int SEQ = 28;
    public static final int PAYLOAD = 36;
    public static final int DATA_BODY_MIN = 8;
    public static final int END_BODY_MIN = 8;
    /** SERVICE frames share the DATA layout (a message number where DATA has its sequence): credit-free. */
    public static final int SERVICE_BODY_MIN = 8;

    // CREDIT body.
    public static final int ACKED = 28;
    public static final int LIMIT = 36;
    public static final int CREDIT_BODY = 16;

    // URGENT body.
    public static final int URGENT_FLAG = 28;
    public static final int URGENT_BODY = 1;

    // HELLO body.
    public static final int HELLO_VERSION = 2;
    public static final int HELLO_FROM = 4;
    public static final int HELLO_TO = 16;
    public static final int HELLO_NONCE = 28;
    public static final int NONCE_BYTES = 16;
    /** The sender's incarnation: which run of its daemon process this is (larger for a later run). */
    public static final int HELLO_INCARNATION = HELLO_NONCE + NONCE_BYTES;
    public static final int HELLO_BODY = 2 + 12 + 12 + NONCE_BYTES + 8;
    /**
     * How far ahead of the receiver's clock the incarnation in a HELLO (wall-clock milliseconds when the daemon
     * started) may be: a daemon whose clock is further ahead is refused, since a far-future run would make every
     * later report of its failure look stale for ever.
     */
    public static final long MAX_INCARNATION_AHEAD_MS = 60 * 60 * 1000L;
    /** A HELLO of protocol version 4 or older, without the incarnation: decoded only to refuse its version. */
    public static final int HELLO_BODY_BEFORE_V5 = HELLO_BODY - 8;

    // AUTH body.
    public static final int AUTH_PROOF = 2;
    public static final int PROOF_BYTES = 32;
    public static final int AUTH_BODY = PROOF_BYTES;

    // ERROR body.
    public static final int ERROR_CODE = 2;
    public static final int ERROR_TEXT = 4;
    public static final int ERROR_BODY_MIN = 2;
    /** Longest ERROR text sent, in UTF-8 bytes; a longer one is cut. */
    public static final int ERROR_TEXT_MAX_BYTES = 1024;

    /**
     * Largest frame a peer may send before its link's handshake completes: a HELLO, an AUTH or an ERROR naming why it
     * refused the link (WELCOME and HEARTBEAT are shorter). See {@link FrameDecoder#FrameDecoder(int, boolean)}.
     */
    public static final int HANDSHAKE_MAX_FRAME_BYTES = Math.max(TYPE_HEADER + HELLO_BODY,
            Math.max(TYPE_HEADER + AUTH_BODY, ERROR_TEXT + ERROR_TEXT_MAX_BYTES));

    /** Hop budget of a fresh routed frame; a frame whose budget runs out is dropped (a routing loop, never expected). */
    public static final int INITIAL_HOPS = 64;

    private FrameLayout() {
    }
}
