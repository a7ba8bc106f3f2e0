package org.camdoop.shuffle.protocol;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.MRJobConfig;

/**
 * What a daemon needs to serve one job: its id, the subset of its configuration the aggregation engine reads, and the
 * digests of the jars holding its user classes (in class path order). Immutable; every instance satisfies the checks
 * below whether built from a JobConf or decoded from bytes ({@link JobSpecCodec}).
 *
 * <p>The subset is fixed ({@link #SPEC_KEYS}) plus the job's {@code camdoop.*} keys (never {@code camdoop.daemon.*}:
 * a job must not be able to change daemon settings) plus the keys the job lists in
 * {@link #EXTRA_KEYS}. Everything else in the job's configuration stays with the job.
 *
 * <p>A spec never carries a key name Hadoop deprecates ({@link DeprecatedKeys}), so each setting has one name in it.
 * Nor does it declare more than {@link #MAX_REDUCES} reduces, which bounds the map output index a
 * daemon checks for each of the job's map attempts.
 */
public final class JobSpec {
    /**
     * A job key: comma-separated further job configuration keys the job's combiner or comparator reads, carried in
     * the spec so daemons that ran no task of the job see them too.
     */
    public static final String EXTRA_KEYS = "camdoop.job.spec.extra-keys";

    /** The old-API combiner key, read by {@link JobConf#getCombinerClass()}; Hadoop has no constant for it. */
    public static final String OLD_API_COMBINER = "mapred.combiner.class";
    /**
     * Most reduces a job may have to be served by daemons ({@value}): each map attempt's index is then at most
     * 2.4 MB. A larger job is refused and runs on the stock shuffle.
     */
    public static final int MAX_REDUCES = 100_000;
    /** Read by Hadoop's KeyFieldBasedComparator (a built-in comparator configured by job keys). */
    static final String KEY_COMPARATOR_OPTIONS = "mapreduce.partition.keycomparator.options";

    /** The job keys every spec carries when the job sets them. */
    public static final Set<String> SPEC_KEYS = Set.of(
            MRJobConfig.MAP_OUTPUT_KEY_CLASS,
            MRJobConfig.MAP_OUTPUT_VALUE_CLASS,
            // JobConf.getMapOutputKeyClass() falls back to these when the map output classes are not set.
            MRJobConfig.OUTPUT_KEY_CLASS,
            MRJobConfig.OUTPUT_VALUE_CLASS,
            MRJobConfig.KEY_COMPARATOR,
            OLD_API_COMBINER,
            MRJobConfig.COMBINE_CLASS_ATTR,
            MRJobConfig.COMBINER_GROUP_COMPARATOR_CLASS,
            MRJobConfig.MAP_OUTPUT_COMPRESS,
            MRJobConfig.MAP_OUTPUT_COMPRESS_CODEC,
            CommonConfigurationKeysPublic.IO_SERIALIZATIONS_KEY,
            MRJobConfig.NUM_REDUCES,
            // Carried so that JobAggregationSpec can refuse an encrypted job instead of misreading its output.
            MRJobConfig.MR_ENCRYPTED_INTERMEDIATE_DATA,
            KEY_COMPARATOR_OPTIONS,
            MRJobConfig.MAP_OUTPUT_KEY_FIELD_SEPARATOR);

    static final String CAMDOOP_JOB_PREFIX = "camdoop.";
    static final String CAMDOOP_DAEMON_PREFIX = "camdoop.daemon.";

    private final String jobId;
    private final SortedMap<String, String> conf;
    private final List<JarDigest> jars;

    /**
     * @throws IllegalArgumentException if {@code jobId} is not a {@link JobID}, a key is outside the subset, or a jar
     *     is listed twice
     */
    public JobSpec(String jobId, Map<String, String> conf, List<JarDigest> jars) {
        this.jobId = checkJobId(jobId);
        this.conf = Collections.unmodifiableSortedMap(new TreeMap<>(conf));
        this.jars = List.copyOf(jars);
        checkKeys(this.conf);
        checkReduces(jobId, toJobConf());
        if (new HashSet<>(this.jars).size() != this.jars.size()) {
            throw new IllegalArgumentException("job spec of " + jobId + " lists a jar twice: " + this.jars);
        }
    }

    /**
     * The spec of {@code job} (its id is {@link MRJobConfig#ID}) with {@code jars}, the job's user class path in order;
     * reads every jar to compute its digest.
     */
    public static JobSpec fromJobConf(JobConf job, List<Path> jars) throws IOException {
        String jobId = job.get(MRJobConfig.ID);
        if (jobId == null) {
            throw new IllegalArgumentException("the JobConf has no " + MRJobConfig.ID);
        }
        SortedMap<String, String> subset = new TreeMap<>();
        for (String key : SPEC_KEYS) {
            putIfSet(job, key, subset);
        }
        for (Map.Entry<String, String> e : job) {
            if (isCamdoopJobKey(e.getKey())) {
                putIfSet(job, e.getKey(), subset);
            }
        }
        for (String key : job.getTrimmedStrings(EXTRA_KEYS)) {
            putIfSet(job, key, subset);
        }
        List<JarDigest> digests = new ArrayList<>();
        for (Path jar : jars) {
            digests.add(JarDigest.of(jar));
        }
        return new JobSpec(jobId, subset, digests);
    }

    private static void putIfSet(JobConf job, String key, Map<String, String> into) {
        // get() resolves deprecated key names and ${var} references once, here, with the job's own configuration.
        String value = job.get(key);
        if (value != null) {
            into.put(key, value);
        }
    }

    /**
     * A JobConf holding exactly the spec's keys: {@code new JobConf(false)}, so no *-default.xml or *-site.xml of the
     * daemon leaks into the job. Where a key is absent Hadoop's code defaults apply (for {@code io.serializations} the
     * Writable and Avro serializations), as they would in the task. The class loader is the caller's to set.
     */
    public JobConf toJobConf() {
        JobConf job = new JobConf(false);
        job.set(MRJobConfig.ID, jobId);
        conf.forEach(job::set);
        return job;
    }

    /**
     * Returns {@code jobId} if it is a job id in canonical form (it names directories and keys tables).
     *
     * @throws IllegalArgumentException if not
     */
    public static String checkJobId(String jobId) {
        JobID parsed;
        try {
            parsed = JobID.forName(jobId);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException("not a job id: " + jobId, e);
        }
        if (parsed == null || !parsed.toString().equals(jobId)) {
            throw new IllegalArgumentException("not a canonical job id: " + jobId);
        }
        return jobId;
    }

    private static void checkKeys(SortedMap<String, String> conf) {
        Set<String> extra = new HashSet<>();
        String extraList = conf.get(EXTRA_KEYS);
        if (extraList != null) {
            for (String k : extraList.split(",")) {
                extra.add(k.trim());
            }
        }
        for (Map.Entry<String, String> e : conf.entrySet()) {
            String key = e.getKey();
            if (key.isEmpty() || e.getValue() == null) {
                throw new IllegalArgumentException("job spec has an empty key or a null value: " + key);
            }
            // Trimmed, as Configuration.set trims the names it stores.
            Optional<String> replacement = DeprecatedKeys.replacement(key.trim());
            if (replacement.isPresent()) {
                throw new IllegalArgumentException("job spec may not carry " + key + ", a key name Hadoop deprecates;"
                        + " it is read as " + replacement.get());
            }
            if (key.startsWith(CAMDOOP_DAEMON_PREFIX)) {
                throw new IllegalArgumentException("job spec may not carry daemon setting " + key);
            }
            if (!SPEC_KEYS.contains(key) && !isCamdoopJobKey(key) && !extra.contains(key)) {
                throw new IllegalArgumentException("job spec may not carry key " + key);
            }
        }
    }

    /** Read as the registry reads it, through the JobConf: hex and ${var} references included. */
    private static void checkReduces(String jobId, JobConf job) {
        int reduces;
        try {
            reduces = job.getNumReduceTasks();
        } catch (IllegalArgumentException | IllegalStateException e) {
            // NumberFormatException, or Hadoop's "Variable substitution depth too large".
            throw new IllegalArgumentException("job spec of " + jobId + " has " + MRJobConfig.NUM_REDUCES + " "
                    + job.getRaw(MRJobConfig.NUM_REDUCES) + ", not a number (" + e.getMessage() + ")");
        }
        if (reduces < 0 || reduces > MAX_REDUCES) {
            throw new IllegalArgumentException("job spec of " + jobId + " declares " + reduces + " reduces ("
                    + MRJobConfig.NUM_REDUCES + "); daemons serve jobs of 0 to " + MAX_REDUCES + " reduces");
        }
    }

    private static boolean isCamdoopJobKey(String key) {
        return key.startsWith(CAMDOOP_JOB_PREFIX) && !key.startsWith(CAMDOOP_DAEMON_PREFIX);
    }

    /** The job's {@link JobID} in its string form. */
    public String jobId() {
        return jobId;
    }

    /** The configuration subset, sorted by key (unmodifiable). */
    public SortedMap<String, String> conf() {
        return conf;
    }

    /** The digests of the job's jars in class path order (unmodifiable). */
    public List<JarDigest> jars() {
        return jars;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof JobSpec other && jobId.equals(other.jobId) && conf.equals(other.conf)
                && jars.equals(other.jars);
    }

    @Override
    public int hashCode() {
        return (jobId.hashCode() * 31 + conf.hashCode()) * 31 + jars.hashCode();
    }

    @Override
    public String toString() {
        return "JobSpec(" + jobId + ", " + conf.size() + " keys, jars " + jars + ")";
    }
}
