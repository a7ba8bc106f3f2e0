package org.camdoop.shuffle.jobs;

import org.camdoop.shuffle.aggregation.JobAggregationSpec;
import org.camdoop.shuffle.protocol.JobSpec;

/**
 * A job this daemon serves: its spec, what the user-code policy allows, its class loader and the aggregation spec
 * built with that loader. Immutable and shareable; after the job is cleaned up its class loader is closed, so holders
 * must not start new work with it.
 */
public final class RegisteredJob {
    private final JobSpec spec;
    private final UserCodeDecision decision;
    private final JobClassLoader classLoader;
    private final JobAggregationSpec aggregation;

    RegisteredJob(JobSpec spec, UserCodeDecision decision, JobClassLoader classLoader, JobAggregationSpec aggregation) {
        this.spec = spec;
        this.decision = decision;
        this.classLoader = classLoader;
        this.aggregation = aggregation;
    }

    public String jobId() {
        return spec.jobId();
    }

    public JobSpec spec() {
        return spec;
    }

    /** {@code COMBINE} or {@code MERGE_ONLY}: refused jobs are never registered. */
    public UserCodeDecision decision() {
        return decision;
    }

    public JobClassLoader classLoader() {
        return classLoader;
    }

    /**
     * What the vertices of this job aggregate with: built from the spec's JobConf with the job's class loader, and
     * without a combiner when the decision is merge only.
     */
    public JobAggregationSpec aggregation() {
        return aggregation;
    }

    @Override
    public String toString() {
        return "RegisteredJob(" + spec.jobId() + ", " + decision.kind() + ")";
    }
}
