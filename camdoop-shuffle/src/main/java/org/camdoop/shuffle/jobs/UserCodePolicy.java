package org.camdoop.shuffle.jobs;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.camdoop.shuffle.protocol.JobSpec;

/**
 * Decides which of a job's classes a daemon may load, from {@link JobsConfig#USER_CODE} and
 * {@link JobsConfig#USER_CODE_ALLOW_LIST}.
 *
 * <p><b>User code</b> is a class the job names that is not on the daemon's own class path, i.e. would come from the
 * job's jars. Classes on the daemon's class path (Hadoop's Text, IntSumReducer, ...) were put there by the operator
 * and always run. Whether a name is on the daemon's class path is found with {@code Class.forName(name, false, ...)},
 * which runs none of the class's code.
 *
 * <p>The policy covers every class the engine would load, in two groups:
 * <ul>
 *   <li>needed to merge at all: map output key and value classes, the sort comparator, the map output codec and the
 *       serializations. If one is user code that is not allowed, the job is <em>refused</em> (merge-only is no way
 *       out: merging loads these classes), and it runs on the stock shuffle;</li>
 *   <li>needed only to combine: the combiner (either API) and the combiner grouping comparator. If one is user code
 *       that is not allowed, the job runs <em>merge only</em> and those classes are never loaded.</li>
 * </ul>
 * So {@code deny} means no job-supplied class ever runs in the daemon. Every name is read from the JobConf the
 * registry builds from the spec, with the getters the engine's Hadoop code uses (trimmed, {@code ${var}} references
 * resolved, booleans as {@link JobConf#getBoolean} reads them): the raw spec map can spell a setting in ways the
 * engine reads differently. Immutable.
 */
public final class UserCodePolicy {
    private static final String DEFAULT_KEY_CLASS = "org.apache.hadoop.io.LongWritable";
    private static final String DEFAULT_VALUE_CLASS = "org.apache.hadoop.io.Text";
    private static final String DEFAULT_CODEC = "org.apache.hadoop.io.compress.DefaultCodec";

    private final UserCodeMode mode;
    private final Set<String> allowList;
    private final ClassLoader daemonLoader;

    /** The policy of {@code config}; {@code daemonLoader} defines what is on the daemon's class path. */
    public UserCodePolicy(JobsConfig config, ClassLoader daemonLoader) {
        this.mode = config.userCodeMode();
        this.allowList = config.allowList();
        this.daemonLoader = daemonLoader;
    }

    public UserCodeDecision decide(JobSpec spec) {
        try {
            return decide(spec.jobId(), spec.toJobConf());
        } catch (IllegalStateException | IllegalArgumentException e) {
            // A name Hadoop cannot resolve ("Variable substitution depth too large"): the engine could not either.
            return UserCodeDecision.refuse("job " + spec.jobId() + " refused: " + e.getMessage()
                    + "; run the job on the stock shuffle");
        }
    }

    private UserCodeDecision decide(String jobId, JobConf conf) {
        for (Map.Entry<String, String> c : mergeClasses(conf)) {
            if (!permitted(c.getValue())) {
                return UserCodeDecision.refuse("job " + jobId + " refused: its " + c.getKey() + " "
                        + c.getValue() + " " + notAllowed() + "; run the job on the stock shuffle");
            }
        }
        // Task.CombinerRunner.create's order: the old-API combiner first.
        String combiner = conf.getTrimmed(JobSpec.OLD_API_COMBINER, conf.getTrimmed(MRJobConfig.COMBINE_CLASS_ATTR));
        if (combiner == null) {
            return UserCodeDecision.mergeOnly("job " + jobId + " has no combiner");
        }
        if (!permitted(combiner)) {
            return UserCodeDecision.mergeOnly("combiner " + combiner + " " + notAllowed());
        }
        String grouping = conf.getTrimmed(MRJobConfig.COMBINER_GROUP_COMPARATOR_CLASS);
        if (grouping != null && !permitted(grouping)) {
            return UserCodeDecision.mergeOnly("combiner grouping comparator " + grouping + " " + notAllowed());
        }
        return UserCodeDecision.combine();
    }

    /** (role, class name) of each class merging loads. */
    private static List<Map.Entry<String, String>> mergeClasses(JobConf conf) {
        List<Map.Entry<String, String>> classes = new ArrayList<>();
        // The same fallbacks as JobConf.getMapOutputKeyClass() and getMapOutputValueClass().
        classes.add(Map.entry("map output key class", conf.getTrimmed(MRJobConfig.MAP_OUTPUT_KEY_CLASS,
                conf.getTrimmed(MRJobConfig.OUTPUT_KEY_CLASS, DEFAULT_KEY_CLASS))));
        classes.add(Map.entry("map output value class", conf.getTrimmed(MRJobConfig.MAP_OUTPUT_VALUE_CLASS,
                conf.getTrimmed(MRJobConfig.OUTPUT_VALUE_CLASS, DEFAULT_VALUE_CLASS))));
        String comparator = conf.getTrimmed(MRJobConfig.KEY_COMPARATOR);
        if (comparator != null) {
            classes.add(Map.entry("sort comparator", comparator));
        }
        if (conf.getCompressMapOutput()) {
            classes.add(Map.entry("map output codec",
                    conf.getTrimmed(MRJobConfig.MAP_OUTPUT_COMPRESS_CODEC, DEFAULT_CODEC)));
        }
        // As SerializationFactory reads them; when unset, Hadoop's own serializations apply.
        for (String s : conf.getTrimmedStrings(CommonConfigurationKeysPublic.IO_SERIALIZATIONS_KEY)) {
            if (!s.isEmpty()) {
                classes.add(Map.entry("serialization", s));
            }
        }
        return classes;
    }

    private boolean permitted(String className) {
        return mode == UserCodeMode.ALLOW || onDaemonClassPath(className)
                || (mode == UserCodeMode.ALLOW_LIST && allowList.contains(className));
    }

    private String notAllowed() {
        return mode == UserCodeMode.ALLOW_LIST
                ? "is user code not on " + JobsConfig.USER_CODE_ALLOW_LIST
                : "is user code and " + JobsConfig.USER_CODE + "=deny";
    }

    private boolean onDaemonClassPath(String className) {
        try {
            Class.forName(className, false, daemonLoader);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
