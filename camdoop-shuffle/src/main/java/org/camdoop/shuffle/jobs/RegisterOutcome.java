package org.camdoop.shuffle.jobs;

import java.util.List;
import java.util.Optional;
import org.camdoop.shuffle.protocol.JarDigest;
import org.camdoop.shuffle.protocol.JobSpec;
import org.camdoop.shuffle.protocol.Refusal;

/** The result of registering a {@link JobSpec} with the {@link JobRegistry}. */
public record RegisterOutcome(Kind kind, String message, List<JarDigest> missingJars, Optional<RegisteredJob> job,
        Optional<Refusal> refusal) {
    /** What happened. */
    public enum Kind {
        /** The job is now served here. */
        REGISTERED,
        /** The same spec was registered before; nothing changed. */
        ALREADY_REGISTERED,
        /** Some of the job's jars are not in the cache: fetch {@link #missingJars()}, put them, register again. */
        MISSING_JARS,
        /** The job is not served here; {@link #message()} says why. */
        REFUSED
    }

    public RegisterOutcome {
        missingJars = List.copyOf(missingJars);
    }

    static RegisterOutcome registered(RegisteredJob job, boolean before) {
        return new RegisterOutcome(before ? Kind.ALREADY_REGISTERED : Kind.REGISTERED,
                job.jobId() + " registered (" + job.decision().reason() + ")", List.of(), Optional.of(job),
                Optional.empty());
    }

    static RegisterOutcome missing(String jobId, List<JarDigest> missing) {
        return new RegisterOutcome(Kind.MISSING_JARS, jobId + " needs jars " + missing, missing, Optional.empty(),
                Optional.of(Refusal.MISSING_JARS));
    }

    /** Refused by policy or a conflicting spec. */
    static RegisterOutcome refused(String message) {
        return refused(Refusal.REFUSED, message);
    }

    /** Refused with the code the failed check chose (e.g. an unknown job or a bad proof). */
    static RegisterOutcome refused(Refusal code, String message) {
        return new RegisterOutcome(Kind.REFUSED, message, List.of(), Optional.empty(), Optional.of(code));
    }
}
