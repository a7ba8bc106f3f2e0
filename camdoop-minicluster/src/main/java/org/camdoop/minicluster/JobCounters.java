package org.camdoop.minicluster;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Cluster;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.CounterGroup;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobID;

/**
 * Reads a finished job's counters from the cluster (the ResourceManager hands finished jobs over to the mini cluster's
 * JobHistoryServer). Flattened by counter name, e.g. {@code REDUCE_SHUFFLE_BYTES}; a name that two groups share is
 * kept under its first group's plain name and {@code group.name} for the later ones.
 */
final class JobCounters {

    private JobCounters() {
    }

    static Map<String, Long> of(Configuration clusterConf, String jobId) throws IOException, InterruptedException {
        Cluster cluster = new Cluster(clusterConf);
        try {
            Job job = cluster.getJob(JobID.forName(jobId));
            if (job == null) {
                throw new IOException("the cluster does not know job " + jobId);
            }
            Counters counters = job.getCounters();
            if (counters == null) {
                // A failed or killed job whose history the cluster no longer (or not yet) serves.
                throw new IOException("the cluster has no counters for job " + jobId + " (" + job.getJobState() + ")");
            }
            return flatten(counters);
        } finally {
            cluster.close();
        }
    }

    static Map<String, Long> flatten(Counters counters) {
        Map<String, Long> flat = new LinkedHashMap<>();
        for (CounterGroup group : counters) {
            for (Counter c : group) {
                String key = flat.containsKey(c.getName()) ? group.getName() + "." + c.getName() : c.getName();
                flat.put(key, c.getValue());
            }
        }
        return flat;
    }
}
