package org.camdoop.shuffle.jobs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.camdoop.shuffle.aggregation.MapOutputFiles;
import org.camdoop.shuffle.aggregation.MapOutputRefusedException;
import org.camdoop.shuffle.protocol.MapOutput;

/**
 * Where a map attempt's output is, derived by the daemon and never taken from a task: Hadoop's layout
 * {@code usercache/<user>/appcache/<application>/output/<attempt>/file.out} (and {@code file.out.index}) searched over
 * the NodeManager's local dirs, exactly as Hadoop 3.5's ShuffleHandler finds it ({@code getBaseLocation} plus
 * {@code AuxiliaryLocalPathHandler.getLocalPathForRead}). The files must belong to the user the job's containers run
 * as ({@link #ownerRule}). Immutable and thread-safe.
 */
public final class MapOutputLocator {

    /** Finds a path relative to the local dirs in the first dir that holds it (Hadoop's getLocalPathForRead). */
    @FunctionalInterface
    public interface LocalDirs {
        Optional<Path> find(String relative) throws IOException;

        /** Searches {@code dirs} in order; a name counts as present whatever it is (links are refused later). */
        static LocalDirs of(List<Path> dirs) {
            List<Path> copy = List.copyOf(dirs);
            return relative -> {
                for (Path dir : copy) {
                    Path p = dir.resolve(relative);
                    if (Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                        return Optional.of(p);
                    }
                }
                return Optional.empty();
            };
        }
    }

    /** A user name that is safe as one directory name (what Hadoop's default user name rules accept, and more). */
    private static final Pattern USER = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.@$-]{0,255}");

    private final LocalDirs dirs;
    private final UnaryOperator<String> owner;

    public MapOutputLocator(LocalDirs dirs, UnaryOperator<String> owner) {
        this.dirs = dirs;
        this.owner = owner;
    }

    /**
     * No local dirs: every registration is refused. For embedded tori, whose map outputs are placed in-process by the
     * code that owns them (local mode, tests) and never registered by tasks.
     */
    public static MapOutputLocator nowhere() {
        return new MapOutputLocator(relative -> Optional.empty(), user -> user);
    }

    /** A standalone daemon: the dirs of {@link JobsConfig#LOCAL_DIRS}, owners by {@link #ownerRule}. */
    public static MapOutputLocator standalone(Configuration conf) {
        List<Path> dirs = new ArrayList<>();
        for (String d : conf.getTrimmedStrings(JobsConfig.LOCAL_DIRS, JobsConfig.LOCAL_DIRS_DEFAULT)) {
            dirs.add(Path.of(d));
        }
        return new MapOutputLocator(LocalDirs.of(dirs), ownerRule(conf));
    }

    /**
     * Who owns a job's map outputs, given the job's user, by the NodeManager's container executor (the same keys
     * decide who its containers run as): the LinuxContainerExecutor runs them as the job's user in a secure cluster
     * or with {@code nonsecure-mode.limit-users=false}, else as {@code nonsecure-mode.local-user}; any other executor
     * (the default DefaultContainerExecutor) runs every container as the NodeManager's own user, which is this JVM's.
     */
    public static UnaryOperator<String> ownerRule(Configuration conf) {
        String executor = conf.get(YarnConfiguration.NM_CONTAINER_EXECUTOR, "");
        if (!executor.endsWith("LinuxContainerExecutor")) {
            String me = JobsConfig.daemonUser();
            return user -> me;
        }
        boolean secure = "kerberos".equalsIgnoreCase(
                conf.get(CommonConfigurationKeysPublic.HADOOP_SECURITY_AUTHENTICATION, "simple"));
        if (secure || !conf.getBoolean(YarnConfiguration.NM_NONSECURE_MODE_LIMIT_USERS,
                YarnConfiguration.DEFAULT_NM_NONSECURE_MODE_LIMIT_USERS)) {
            return user -> user;
        }
        String local = conf.get(YarnConfiguration.NM_NONSECURE_MODE_LOCAL_USER_KEY,
                YarnConfiguration.DEFAULT_NM_NONSECURE_MODE_LOCAL_USER);
        return user -> local;
    }

    /**
     * The files of {@code output} for a job of {@code user}, checked ({@link MapOutputFiles#verify()}).
     *
     * @throws MapOutputRefusedException if they are missing or fail a check; the message names the attempt
     */
    public MapOutputFiles locate(String user, MapOutput output) throws IOException {
        String base = attemptDir(user, output.jobId(), output.attemptId());
        Path index = find(output, base + "/file.out.index");
        Path file = find(output, base + "/file.out");
        MapOutputFiles files = MapOutputFiles.ownedBy(owner.apply(user), output.attemptId(), file, index,
                output.partitions());
        files.verify();
        return files;
    }

    private Path find(MapOutput output, String relative) throws IOException {
        return dirs.find(relative).orElseThrow(() -> new MapOutputRefusedException(output.attemptId(),
                "no local dir holds " + relative));
    }

    /** {@code usercache/<user>/appcache/<application>/output/<attempt>}, as ShuffleHandler.getBaseLocation says. */
    public static String attemptDir(String user, String jobId, String attemptId) throws MapOutputRefusedException {
        JobID job = JobID.forName(jobId);
        long clusterTimestamp;
        try {
            clusterTimestamp = Long.parseLong(job.getJtIdentifier());
        } catch (NumberFormatException e) {
            throw new MapOutputRefusedException(attemptId, "job " + jobId + " is not a YARN application's job");
        }
        ApplicationId app = ApplicationId.newInstance(clusterTimestamp, job.getId());
        return "usercache/" + checkUser(user) + "/appcache/" + app + "/output/" + attemptId;
    }

    /**
     * {@code user} if it is usable as one directory name.
     *
     * @throws IllegalArgumentException if it is empty, a dot segment or holds a separator or other odd character
     */
    public static String checkUser(String user) {
        if (user == null || !USER.matcher(user).matches()) {
            throw new IllegalArgumentException("not a usable user name: " + user);
        }
        return user;
    }
}
