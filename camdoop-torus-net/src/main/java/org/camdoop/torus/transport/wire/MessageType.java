package org.camdoop.torus.transport.wire;

/**
 * The closed set of frame types. Link types travel one hop and are consumed by the link; routed types carry a
 * routed header ({@link FrameLayout}) and may be forwarded towards their destination server.
 */
public enum MessageType {
    HELLO(1, false, FrameLayout.HELLO_BODY_BEFORE_V5),
    AUTH(2, false, FrameLayout.AUTH_BODY),
    WELCOME(3, false, 0),
    ERROR(4, false, FrameLayout.ERROR_BODY_MIN),
    HEARTBEAT(5, false, 0),
    DATA(6, true, FrameLayout.DATA_BODY_MIN),
    END(7, true, FrameLayout.END_BODY_MIN),
    CREDIT(8, true, FrameLayout.CREDIT_BODY),
    URGENT(9, true, FrameLayout.URGENT_BODY),
    SERVICE(10, true, FrameLayout.SERVICE_BODY_MIN);

    private static final MessageType[] BY_CODE = new MessageType[16];

    static {
        for (MessageType t : values()) {
            BY_CODE[t.code] = t;
        }
    }

    private final int code;
    private final boolean routed;
    private final int minBody;

    MessageType(int code, boolean routed, int minBody) {
        this.code = code;
        this.routed = routed;
        this.minBody = minBody;
    }

    /** The type byte on the wire. */
    public int code() {
        return code;
    }

    /** Whether frames of this type carry the routed header and may be forwarded. */
    public boolean routed() {
        return routed;
    }

    /** Smallest legal frame length (the bytes after the length field) for this type. */
    public int minFrameLength() {
        return (routed ? FrameLayout.ROUTED_HEADER : FrameLayout.TYPE_HEADER) + minBody;
    }

    /** The type for a wire code, or {@code null} if the code names no type. */
    public static MessageType ofCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
