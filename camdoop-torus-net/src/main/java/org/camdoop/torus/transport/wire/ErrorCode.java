package org.camdoop.torus.transport.wire;

/** Why a peer refused or closed a connection; sent in an ERROR frame before closing. */
public enum ErrorCode {
    VERSION_MISMATCH(1),
    WRONG_COORDINATE(2),
    BAD_PROOF(3),
    FRAME_TOO_LARGE(4),
    MALFORMED_FRAME(5),
    UNKNOWN_TYPE(6),
    PROTOCOL_VIOLATION(7),
    HANDSHAKE_TIMEOUT(8),
    SHUTTING_DOWN(9);

    private final int code;

    ErrorCode(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The error for a wire code; unknown codes map to {@link #PROTOCOL_VIOLATION} (the text still says what happened). */
    public static ErrorCode ofCode(int code) {
        for (ErrorCode e : values()) {
            if (e.code == code) {
                return e;
            }
        }
        return PROTOCOL_VIOLATION;
    }
}
