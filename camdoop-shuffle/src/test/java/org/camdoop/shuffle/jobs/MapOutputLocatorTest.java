package org.camdoop.shuffle.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.hadoop.conf.Configuration;
import org.camdoop.shuffle.aggregation.MapOutputRefusedException;
import org.junit.jupiter.api.Test;

/** Where a map output is (ShuffleHandler's layout) and whose it must be (the container executor's run-as user). */
class MapOutputLocatorTest {
    private static final String LCE = "org.apache.hadoop.yarn.server.nodemanager.LinuxContainerExecutor";

    @Test
    void theAttemptDirectoryIsShuffleHandlersBaseLocation() throws Exception {
        assertEquals("usercache/alice/appcache/application_1700000000000_0042/output/"
                + "attempt_1700000000000_0042_m_000003_1",
                MapOutputLocator.attemptDir("alice", "job_1700000000000_0042", "attempt_1700000000000_0042_m_000003_1"));
        assertEquals("map output of attempt_local7_0001_m_000000_0 refused: job job_local7_0001 is not a YARN"
                + " application's job", assertThrows(MapOutputRefusedException.class, () -> MapOutputLocator
                        .attemptDir("alice", "job_local7_0001", "attempt_local7_0001_m_000000_0")).getMessage());
    }

    @Test
    void theOwnerIsWhoTheContainerExecutorRunsContainersAs() {
        Configuration conf = new Configuration(false);
        // DefaultContainerExecutor (the default): every container runs as the NodeManager's user, this JVM's.
        assertEquals(System.getProperty("user.name"), MapOutputLocator.ownerRule(conf).apply("alice"));
        conf.set("yarn.nodemanager.container-executor.class", LCE);
        assertEquals("nobody", MapOutputLocator.ownerRule(conf).apply("alice"));
        conf.set("yarn.nodemanager.linux-container-executor.nonsecure-mode.local-user", "yarnrun");
        assertEquals("yarnrun", MapOutputLocator.ownerRule(conf).apply("alice"));
        conf.setBoolean("yarn.nodemanager.linux-container-executor.nonsecure-mode.limit-users", false);
        assertEquals("alice", MapOutputLocator.ownerRule(conf).apply("alice"));
        conf.unset("yarn.nodemanager.linux-container-executor.nonsecure-mode.limit-users");
        conf.set("hadoop.security.authentication", "kerberos");
        assertEquals("alice", MapOutputLocator.ownerRule(conf).apply("alice"));
    }
}
