package org.camdoop.shuffle.jobs;

/** Whether a check passed, and the exact reason when it did not (the text callers report). */
public record Verdict(boolean accepted, String reason) {
    static final Verdict OK = new Verdict(true, "ok");

    static Verdict refused(String reason) {
        return new Verdict(false, reason);
    }
}
