package org.camdoop.shuffle.hadoop;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRConfig;

/** Whether a job runs in LocalJobRunner (no daemons, no completion events). Stateless. */
final class LocalMode {
    private LocalMode() {}

    static boolean isLocal(Configuration job) {
        return MRConfig.LOCAL_FRAMEWORK_NAME.equals(job.get(MRConfig.FRAMEWORK_NAME, MRConfig.LOCAL_FRAMEWORK_NAME));
    }
}
