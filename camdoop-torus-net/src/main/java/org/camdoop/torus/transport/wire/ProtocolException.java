package org.camdoop.torus.transport.wire;

import io.netty.handler.codec.DecoderException;

/**
 * A peer broke the protocol. Carries the error code sent back in the ERROR frame; the message is the text sent with it.
 * Extends {@link DecoderException} so Netty's decoders pass it through unwrapped.
 */
public final class ProtocolException extends DecoderException {

    private static final long serialVersionUID = 1L;

    private final ErrorCode code;

    public ProtocolException(ErrorCode code, String message) {
        super(message);
        this.code = code;
    }

    public ErrorCode code() {
        return code;
    }
}
