package org.camdoop.shuffle.jobs;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.camdoop.shuffle.protocol.JobSpec;

/**
 * The daemon-side configuration of the jobs package: every key, its default, and the values read from a Hadoop
 * {@link Configuration}. Each key is documented in {@code conf/camdoop-site.xml}. Immutable.
 */
public final class JobsConfig {
    /** What job-supplied code the daemon may run: {@code allow}, {@code allow-list} or {@code deny}. */
    public static final String USER_CODE = "camdoop.daemon.user-code";
    public static final String USER_CODE_DEFAULT = "allow";
    /** Comma-separated class names a job may bring when {@link #USER_CODE} is {@code allow-list}. */
    public static final String USER_CODE_ALLOW_LIST = "camdoop.daemon.user-code.allow-list";
    public static final String USER_CODE_ALLOW_LIST_DEFAULT = "";
    /** A job with no activity for this long is cleaned by {@link JobRegistry#expireIdle()}. */
    public static final String JOB_IDLE_TIMEOUT_MS = "camdoop.daemon.job.idle-timeout-ms";
    public static final long JOB_IDLE_TIMEOUT_MS_DEFAULT = 60L * 60 * 1000;
    /** Directory of the digest-addressed jar cache; must be writable by the daemon's user only. */
    public static final String JAR_CACHE_DIR = "camdoop.daemon.jar-cache.dir";
    public static final String JAR_CACHE_DIR_DEFAULT = "${hadoop.tmp.dir}/camdoop/jar-cache";
    /** Upper bound of the jar cache (bytes); jars of live jobs are never evicted, so it can be exceeded. */
    public static final String JAR_CACHE_MAX_BYTES = "camdoop.daemon.jar-cache.max-bytes";
    public static final long JAR_CACHE_MAX_BYTES_DEFAULT = 1L << 30;
    /**
     * Standalone daemons only: accept a job token sent by the first registration of a job over a loopback connection.
     * Off by default; see docs/security.md for what this trusts.
     */
    public static final String JOB_TOKEN_TRUST_ON_FIRST_USE = "camdoop.daemon.job-token.trust-on-first-use";
    public static final boolean JOB_TOKEN_TRUST_ON_FIRST_USE_DEFAULT = false;
    /**
     * Standalone daemons only (inside a NodeManager its own local dirs are used): comma-separated directories holding
     * the map outputs of this server's tasks in YARN's layout ({@code usercache/<user>/appcache/<app>/output/
     * <attempt>/file.out}); set it to the NodeManager's {@code yarn.nodemanager.local-dirs}. See
     * {@link MapOutputLocator}.
     */
    public static final String LOCAL_DIRS = "camdoop.daemon.local-dirs";
    public static final String LOCAL_DIRS_DEFAULT = "${hadoop.tmp.dir}/nm-local-dir";

    /**
     * A <em>job</em> key (set by the user, carried in the {@link JobSpec}): comma-separated further job configuration
     * keys the job's combiner or comparator reads, so daemons that ran no task of the job see them too. Owned by
     * {@link JobSpec#EXTRA_KEYS} (the protocol reads it); named here with the daemon's other keys.
     */
    public static final String JOB_SPEC_EXTRA_KEYS = JobSpec.EXTRA_KEYS;

    private final UserCodeMode userCodeMode;
    private final Set<String> allowList;
    private final long idleTimeoutMs;
    private final Path jarCacheDir;
    private final long jarCacheMaxBytes;
    private final boolean trustOnFirstUse;

    private JobsConfig(Configuration conf) {
        this.userCodeMode = UserCodeMode.parse(conf.get(USER_CODE, USER_CODE_DEFAULT));
        this.allowList = new TreeSet<>(Arrays.asList(conf.getTrimmedStrings(USER_CODE_ALLOW_LIST)));
        this.idleTimeoutMs = positive(JOB_IDLE_TIMEOUT_MS,
                conf.getLong(JOB_IDLE_TIMEOUT_MS, JOB_IDLE_TIMEOUT_MS_DEFAULT));
        this.jarCacheDir = Path.of(conf.get(JAR_CACHE_DIR, JAR_CACHE_DIR_DEFAULT));
        this.jarCacheMaxBytes = positive(JAR_CACHE_MAX_BYTES,
                conf.getLong(JAR_CACHE_MAX_BYTES, JAR_CACHE_MAX_BYTES_DEFAULT));
        this.trustOnFirstUse = conf.getBoolean(JOB_TOKEN_TRUST_ON_FIRST_USE, JOB_TOKEN_TRUST_ON_FIRST_USE_DEFAULT);
    }

    /** The values in {@code conf}, defaults for keys it does not set. */
    public static JobsConfig from(Configuration conf) {
        return new JobsConfig(conf);
    }

    private static long positive(String key, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(key + " must be positive, got " + value);
        }
        return value;
    }

    public UserCodeMode userCodeMode() {
        return userCodeMode;
    }

    /** Class names permitted in {@link UserCodeMode#ALLOW_LIST} mode (sorted, unmodifiable). */
    public Set<String> allowList() {
        return Collections.unmodifiableSet(allowList);
    }

    public long idleTimeoutMs() {
        return idleTimeoutMs;
    }

    public Path jarCacheDir() {
        return jarCacheDir;
    }

    public long jarCacheMaxBytes() {
        return jarCacheMaxBytes;
    }

    public boolean trustOnFirstUse() {
        return trustOnFirstUse;
    }

    /** The user this JVM runs as: the owner of what it creates. */
    public static String daemonUser() {
        return System.getProperty("user.name");
    }
}
