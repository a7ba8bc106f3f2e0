package org.camdoop.shuffle.protocol;

import java.io.IOException;

/** Bytes that are not a valid encoded {@link JobSpec}; no part of them is used. */
public final class MalformedJobSpecException extends IOException {
    private static final long serialVersionUID = 1L;

    public MalformedJobSpecException(String message) {
        super("malformed job spec: " + message);
    }
}
