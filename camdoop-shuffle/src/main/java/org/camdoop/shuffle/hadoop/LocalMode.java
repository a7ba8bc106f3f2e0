package org.camdoop.shuffle.hadoop;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRConfig;
import org.camdoop.torus.topology.TorusShape;

/**
 * Whether a job's reduce reads {@code localMapFiles} (LocalJobRunner, or an uber task in the ApplicationMaster) rather
 * than asking the daemons, and the torus it gets then. Stateless.
 */
final class LocalMode {
    /**
     * Set by Hadoop's {@code LocalContainerLauncher} on every subtask of an uber job (no constant for it in
     * {@code MRJobConfig}): its maps' outputs are renamed by the ApplicationMaster and handed to its reduce as
     * {@code localMapFiles}, so registering them with a daemon would announce files that are about to move.
     */
    static final String UBERIZED_TASK = "mapreduce.task.uberized";

    /** Largest default shape: the maps spread over at most 3x3x3 servers. */
    private static final int MAX_DEFAULT_SERVERS = 27;

    private LocalMode() {}

    static boolean isLocal(Configuration job) {
        return MRConfig.LOCAL_FRAMEWORK_NAME.equals(job.get(MRConfig.FRAMEWORK_NAME, MRConfig.LOCAL_FRAMEWORK_NAME));
    }

    /** A subtask of an uber job, run inside the ApplicationMaster. */
    static boolean isUberTask(Configuration job) {
        return job.getBoolean(UBERIZED_TASK, false);
    }

    /** {@code camdoop.local.shape}, else the smallest shape for min(maps, 27) servers. */
    static TorusShape shape(Configuration job, int maps) {
        String configured = job.getTrimmed(CamdoopJobConfig.LOCAL_SHAPE, CamdoopJobConfig.DEFAULT_LOCAL_SHAPE);
        if (!configured.isEmpty()) {
            return TorusShape.parse(configured);
        }
        return TorusShape.forServers(servers(job, maps));
    }

    /** The live servers: all of a configured shape, else min(maps, 27). */
    static int servers(Configuration job, int maps) {
        String configured = job.getTrimmed(CamdoopJobConfig.LOCAL_SHAPE, CamdoopJobConfig.DEFAULT_LOCAL_SHAPE);
        if (!configured.isEmpty()) {
            return TorusShape.parse(configured).size();
        }
        return Math.max(1, Math.min(maps, MAX_DEFAULT_SERVERS));
    }
}
