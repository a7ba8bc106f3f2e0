package org.camdoop.shuffle.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.util.ReflectionUtils;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobClassLoaderTest {
    static final String JOB_A = "job_1700000000000_0010";
    static final String JOB_B = "job_1700000000000_0011";

    @TempDir
    static Path work;
    static Path userJar;

    @BeforeAll
    static void compileUserJar() throws Exception {
        userJar = UserJars.build(work);
    }

    private static ClassLoader daemonLoader() {
        return JobClassLoaderTest.class.getClassLoader();
    }

    @Test
    void userClassesLoadOnlyThroughTheirJobsLoader() throws Exception {
        try (JobClassLoader a = JobClassLoader.open(JOB_A, List.of(userJar), daemonLoader());
                JobClassLoader b = JobClassLoader.open(JOB_B, List.of(), daemonLoader())) {
            Class<?> combiner = a.loadClass(UserJars.SUM_COMBINER);

            assertSame(a, combiner.getClassLoader());
            assertThrows(ClassNotFoundException.class,
                    () -> Class.forName(UserJars.SUM_COMBINER, false, daemonLoader()));
            assertThrows(ClassNotFoundException.class, () -> b.loadClass(UserJars.SUM_COMBINER));
            assertSame(Text.class, a.loadClass(Text.class.getName()), "parent first: Hadoop's own Text");
        }
    }

    @Test
    void twoJobsWithTheSameJarGetDistinctClasses() throws Exception {
        try (JobClassLoader a = JobClassLoader.open(JOB_A, List.of(userJar), daemonLoader());
                JobClassLoader b = JobClassLoader.open(JOB_B, List.of(userJar), daemonLoader())) {
            assertNotSame(a.loadClass(UserJars.SUM_COMBINER), b.loadClass(UserJars.SUM_COMBINER));
        }
    }

    @Test
    void aClosedLoaderLoadsNothingNew() throws Exception {
        JobClassLoader a = JobClassLoader.open(JOB_A, List.of(userJar), daemonLoader());
        a.loadClass(UserJars.SUM_COMBINER);

        a.close();

        assertTrue(a.isClosed());
        assertThrows(ClassNotFoundException.class, () -> a.loadClass(UserJars.EXTRA_CLASS));
        assertEquals("camdoop-job-" + JOB_A + " (closed)", a.toString());
        a.close(); // idempotent
    }

    @Test
    void aClosedLoaderIsCollectedEvenAfterHadoopCachedItsClasses() throws Exception {
        WeakReference<JobClassLoader> ref = useAndClose();
        for (int i = 0; i < 50 && ref.get() != null; i++) {
            System.gc();
            byte[][] pressure = new byte[16][];
            for (int j = 0; j < pressure.length; j++) {
                pressure[j] = new byte[1 << 20];
            }
        }
        assertNull(ref.get(), "the job's class loader is still reachable after close");
    }

    /** Instantiates the combiner through ReflectionUtils (which caches its constructor statically), then closes. */
    private static WeakReference<JobClassLoader> useAndClose() throws Exception {
        JobClassLoader loader = JobClassLoader.open(JOB_A, List.of(userJar), daemonLoader());
        JobConf conf = new JobConf(false);
        conf.setClassLoader(loader);
        conf.set("mapred.combiner.class", UserJars.SUM_COMBINER);
        Object combiner = ReflectionUtils.newInstance(conf.getCombinerClass(), conf);
        assertSame(loader, combiner.getClass().getClassLoader());
        loader.close();
        return new WeakReference<>(loader);
    }
}
