package org.camdoop.shuffle.jobs;

import java.util.Optional;
import org.camdoop.shuffle.protocol.Refusal;

/**
 * Whether a check passed; when it did not, the refusal's code, decided where the check failed, and the exact reason
 * (the text callers report).
 */
public record Verdict(Optional<Refusal> refusal, String reason) {
    static final Verdict OK = new Verdict(Optional.empty(), "ok");

    public boolean accepted() {
        return refusal.isEmpty();
    }

    static Verdict refused(Refusal code, String reason) {
        return new Verdict(Optional.of(code), reason);
    }
}
