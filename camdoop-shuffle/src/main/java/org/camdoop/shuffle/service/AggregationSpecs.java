package org.camdoop.shuffle.service;

import java.util.Optional;
import org.camdoop.shuffle.aggregation.JobAggregationSpec;

/**
 * How a daemon merges a job's records: its comparator, serializers and combiner, loaded with the job's class loader
 * (the job registry in a daemon). Empty when the daemon does not know the job.
 */
@FunctionalInterface
public interface AggregationSpecs {

    Optional<JobAggregationSpec> forJob(String jobId);
}
