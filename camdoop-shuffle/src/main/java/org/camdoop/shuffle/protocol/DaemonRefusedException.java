package org.camdoop.shuffle.protocol;

import java.io.IOException;

/** The local daemon answered a request with a refusal: {@link #refusal()} says which kind, the message exactly why. */
public final class DaemonRefusedException extends IOException {
    private static final long serialVersionUID = 1L;

    private final Refusal refusal;

    public DaemonRefusedException(Refusal refusal, String message) {
        super(message);
        this.refusal = refusal;
    }

    public Refusal refusal() {
        return refusal;
    }
}
