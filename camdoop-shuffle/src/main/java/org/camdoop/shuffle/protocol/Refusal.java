package org.camdoop.shuffle.protocol;

/**
 * Why a daemon refused a local request; the code travels on the wire next to the exact message. The daemon chooses it
 * where the request fails (the check's verdict or outcome carries it), never from the message's wording.
 */
public enum Refusal {
    /** The daemon knows no job token (or no spec) for the job. */
    UNKNOWN_JOB(1),
    /** The request's job token proof does not match. */
    BAD_PROOF(2),
    /** The job spec names jars the daemon's cache lacks: send them with PUT_JAR and register again. */
    MISSING_JARS(3),
    /** Any other refusal by the registry or service (policy, spec conflict, bad shuffle request). */
    REFUSED(4),
    /** The request could not be decoded. */
    MALFORMED(5);

    private final int code;

    Refusal(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The refusal with wire code {@code code}; unknown codes read as {@link #REFUSED}. */
    public static Refusal of(int code) {
        for (Refusal r : values()) {
            if (r.code == code) {
                return r;
            }
        }
        return REFUSED;
    }
}
