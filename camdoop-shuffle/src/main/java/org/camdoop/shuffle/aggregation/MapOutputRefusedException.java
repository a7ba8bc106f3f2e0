package org.camdoop.shuffle.aggregation;

import java.io.IOException;

/**
 * A map output's files failed a check before they were read (not a regular file, a symbolic link, another owner, an
 * index of the wrong size or checksum). The message names the attempt and the reason.
 */
public final class MapOutputRefusedException extends IOException {
    private static final long serialVersionUID = 1L;

    private final String reason;

    public MapOutputRefusedException(String attemptId, String reason) {
        super("map output of " + attemptId + " refused: " + reason);
        this.reason = reason;
    }

    /** Why, without the attempt: e.g. {@code file.out /... is a symbolic link}. */
    public String reason() {
        return reason;
    }
}
