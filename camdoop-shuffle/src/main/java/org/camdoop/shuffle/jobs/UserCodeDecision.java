package org.camdoop.shuffle.jobs;

/** What the {@link UserCodePolicy} lets a daemon do for one job, and why when it is less than combining. */
public record UserCodeDecision(Kind kind, String reason) {
    /** The three outcomes, from most to least work the daemon does for the job. */
    public enum Kind {
        /** Merge and run the job's combiner on path. */
        COMBINE,
        /** Merge only (the "noagg" mode): the combiner is never loaded. */
        MERGE_ONLY,
        /** Do not serve the job at all; it must use the stock shuffle. */
        REFUSE
    }

    public UserCodeDecision {
        if (kind == null || reason == null) {
            throw new IllegalArgumentException("decision needs a kind and a reason");
        }
    }

    static UserCodeDecision combine() {
        return new UserCodeDecision(Kind.COMBINE, "combiner allowed");
    }

    static UserCodeDecision mergeOnly(String reason) {
        return new UserCodeDecision(Kind.MERGE_ONLY, reason);
    }

    static UserCodeDecision refuse(String reason) {
        return new UserCodeDecision(Kind.REFUSE, reason);
    }
}
