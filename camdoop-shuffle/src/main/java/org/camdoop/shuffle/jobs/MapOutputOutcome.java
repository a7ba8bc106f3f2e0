package org.camdoop.shuffle.jobs;

/** The result of {@link JobRegistry#registerMapOutput}. */
public record MapOutputOutcome(Kind kind, String message) {
    /** What happened. */
    public enum Kind {
        /** Recorded. */
        ACCEPTED,
        /** The same registration was recorded before (a retried request); nothing changed. */
        DUPLICATE,
        /** Not recorded; {@link #message()} says why. */
        REFUSED
    }
}
