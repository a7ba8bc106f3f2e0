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
    /**
     * Directory of the digest-addressed jar cache; empty: {@code camdoop/jar-cache} under the daemon's first local dir.
     * An existing directory must be owned by the daemon's user with mode 700, else the daemon refuses to start.
     */
    public static final String JAR_CACHE_DIR = "camdoop.daemon.jar-cache.dir";
    public static final String JAR_CACHE_DIR_DEFAULT = "";
    /** Upper bound of the jar cache (bytes), uploads in progress included; no single jar may exceed it. */
    public static final String JAR_CACHE_MAX_BYTES = "camdoop.daemon.jar-cache.max-bytes";
    public static final long JAR_CACHE_MAX_BYTES_DEFAULT = 1L << 30;
    /** Jar uploads (local PUT_JAR or from peers) in progress at once; more are refused. */
    public static final String JAR_CACHE_MAX_UPLOADS = "camdoop.daemon.jar-cache.max-uploads";
    public static final int JAR_CACHE_MAX_UPLOADS_DEFAULT = 4;
    /** Bytes of jars one job may send to a daemon over the local channel, over the job's life. */
    public static final String JAR_CACHE_MAX_JOB_BYTES = "camdoop.daemon.jar-cache.max-job-bytes";
    public static final long JAR_CACHE_MAX_JOB_BYTES_DEFAULT = 512L << 20;
    /**
     * Standalone daemons only: a job whose token the daemon does not know belongs to the first local user (SO_PEERCRED)
     * that names it, and requests for it are then accepted from that user only, without token proofs. Off by default;
     * see docs/security.md for what this trusts.
     */
    public static final String JOB_TOKEN_TRUST_ON_FIRST_USE = "camdoop.daemon.job-token.trust-on-first-use";
    public static final boolean JOB_TOKEN_TRUST_ON_FIRST_USE_DEFAULT = false;
    /**
     * The daemon's local dirs, comma-separated (inside a NodeManager, CamdoopShuffleHandler sets them to the
     * NodeManager's {@code yarn.nodemanager.local-dirs}; a standalone daemon serving a NodeManager's containers should
     * use the same): the map outputs of this server's tasks are found there in YARN's layout ({@code usercache/<user>/
     * appcache/<app>/output/<attempt>/file.out}, see {@link MapOutputLocator}); the daemon writes
     * {@code camdoop/daemon.socket} (where its socket is) in each, binds its socket and keeps its jar cache under the
     * first.
     */
    public static final String LOCAL_DIRS = "camdoop.daemon.local-dirs";
    public static final String LOCAL_DIRS_DEFAULT = "${hadoop.tmp.dir}/nm-local-dir";

    /**
     * Which local user may make requests for a job: {@code job-user} (the job's user as the NodeManager reported it;
     * LinuxContainerExecutor, where containers run as the job's user) or {@code daemon-user} (DefaultContainerExecutor,
     * where every container runs as the NodeManager's user, which is then the daemon's user too).
     */
    public static final String LOCAL_PEER_CHECK = "camdoop.daemon.local.peer-check";
    public static final String LOCAL_PEER_CHECK_DEFAULT = "job-user";
    /** Jobs a daemon knows at once (tokens from the NodeManager, trust-on-first-use owners, registered specs). */
    public static final String MAX_JOBS = "camdoop.daemon.jobs.max";
    public static final int MAX_JOBS_DEFAULT = 1024;
    /** Map outputs registered for one job on one daemon. */
    public static final String MAX_MAP_OUTPUTS_PER_JOB = "camdoop.daemon.job.max-map-outputs";
    public static final int MAX_MAP_OUTPUTS_PER_JOB_DEFAULT = 100_000;

    /**
     * A <em>job</em> key (set by the user, carried in the {@link JobSpec}): comma-separated further job configuration
     * keys the job's combiner or comparator reads, so daemons that ran no task of the job see them too. Owned by
     * {@link JobSpec#EXTRA_KEYS} (the protocol reads it); named here with the daemon's other keys.
     */
    public static final String JOB_SPEC_EXTRA_KEYS = JobSpec.EXTRA_KEYS;

    private final UserCodeMode userCodeMode;
    private final Set<String> allowList;
    private final long idleTimeoutMs;
    private final String jarCacheDir;
    private final long jarCacheMaxBytes;
    private final int jarCacheMaxUploads;
    private final long jarCacheMaxJobBytes;
    private final boolean trustOnFirstUse;
    private final boolean peerIsJobUser;
    private final int maxJobs;
    private final int maxMapOutputsPerJob;

    private JobsConfig(Configuration conf) {
        this.userCodeMode = UserCodeMode.parse(conf.get(USER_CODE, USER_CODE_DEFAULT));
        this.allowList = new TreeSet<>(Arrays.asList(conf.getTrimmedStrings(USER_CODE_ALLOW_LIST)));
        this.idleTimeoutMs = positive(JOB_IDLE_TIMEOUT_MS,
                conf.getLong(JOB_IDLE_TIMEOUT_MS, JOB_IDLE_TIMEOUT_MS_DEFAULT));
        this.jarCacheDir = conf.getTrimmed(JAR_CACHE_DIR, JAR_CACHE_DIR_DEFAULT);
        this.jarCacheMaxBytes = positive(JAR_CACHE_MAX_BYTES,
                conf.getLong(JAR_CACHE_MAX_BYTES, JAR_CACHE_MAX_BYTES_DEFAULT));
        this.jarCacheMaxUploads = (int) positive(JAR_CACHE_MAX_UPLOADS,
                conf.getInt(JAR_CACHE_MAX_UPLOADS, JAR_CACHE_MAX_UPLOADS_DEFAULT));
        this.jarCacheMaxJobBytes = positive(JAR_CACHE_MAX_JOB_BYTES,
                conf.getLong(JAR_CACHE_MAX_JOB_BYTES, JAR_CACHE_MAX_JOB_BYTES_DEFAULT));
        this.trustOnFirstUse = conf.getBoolean(JOB_TOKEN_TRUST_ON_FIRST_USE, JOB_TOKEN_TRUST_ON_FIRST_USE_DEFAULT);
        String peer = conf.getTrimmed(LOCAL_PEER_CHECK, LOCAL_PEER_CHECK_DEFAULT);
        if (!peer.equals("job-user") && !peer.equals("daemon-user")) {
            throw new IllegalArgumentException(LOCAL_PEER_CHECK + " must be job-user or daemon-user, got '" + peer + "'");
        }
        this.peerIsJobUser = peer.equals("job-user");
        this.maxJobs = (int) positive(MAX_JOBS, conf.getInt(MAX_JOBS, MAX_JOBS_DEFAULT));
        this.maxMapOutputsPerJob = (int) positive(MAX_MAP_OUTPUTS_PER_JOB,
                conf.getInt(MAX_MAP_OUTPUTS_PER_JOB, MAX_MAP_OUTPUTS_PER_JOB_DEFAULT));
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

    /** The configured jar cache directory, or {@code fallback} (under the daemon's local dirs) when unset. */
    public Path jarCacheDir(Path fallback) {
        return jarCacheDir.isEmpty() ? fallback : Path.of(jarCacheDir);
    }

    public int jarCacheMaxUploads() {
        return jarCacheMaxUploads;
    }

    public long jarCacheMaxJobBytes() {
        return jarCacheMaxJobBytes;
    }

    /** Whether a local request for a job must come from the job's user (else from the daemon's user). */
    public boolean peerIsJobUser() {
        return peerIsJobUser;
    }

    public int maxJobs() {
        return maxJobs;
    }

    public int maxMapOutputsPerJob() {
        return maxMapOutputsPerJob;
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
