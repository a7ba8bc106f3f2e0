package org.camdoop.shuffle.jobs;

import java.util.Optional;
import org.camdoop.shuffle.protocol.Refusal;

/** The result of {@link JobRegistry#registerMapOutput}; a refusal carries the code chosen where it was refused. */
public record MapOutputOutcome(Kind kind, String message, Optional<Refusal> refusal) {
    /** What happened. */
    public enum Kind {
        /** Recorded. */
        ACCEPTED,
        /** The same registration was recorded before (a retried request); nothing changed. */
        DUPLICATE,
        /** Not recorded; {@link #message()} says why. */
        REFUSED
    }

    static MapOutputOutcome accepted(String message) {
        return new MapOutputOutcome(Kind.ACCEPTED, message, Optional.empty());
    }

    static MapOutputOutcome duplicate(String message) {
        return new MapOutputOutcome(Kind.DUPLICATE, message, Optional.empty());
    }

    static MapOutputOutcome refused(Refusal code, String message) {
        return new MapOutputOutcome(Kind.REFUSED, message, Optional.of(code));
    }
}
