package org.camdoop.shuffle.jobs;

import java.time.Clock;

/**
 * What a {@link JobRegistry} works with: its configuration, the jar cache, the job tokens, where map outputs are, the
 * user-code policy, the clock of idle timeouts and the daemon's class loader (parent of every job's loader).
 */
public record JobRegistryContext(JobsConfig config, JarCache jars, JobTokens tokens, MapOutputLocator outputs,
        UserCodePolicy policy, Clock clock, ClassLoader daemonLoader) {
    /** The usual context: the policy of {@code config} over the class loader that loaded Camdoop. */
    public static JobRegistryContext of(JobsConfig config, JarCache jars, JobTokens tokens, MapOutputLocator outputs,
            Clock clock) {
        ClassLoader daemon = JobRegistry.class.getClassLoader();
        return new JobRegistryContext(config, jars, tokens, outputs, new UserCodePolicy(config, daemon), clock,
                daemon);
    }
}
