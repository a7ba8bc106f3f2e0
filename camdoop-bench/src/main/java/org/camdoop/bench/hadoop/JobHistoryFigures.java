package org.camdoop.bench.hadoop;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.FileSystemCounter;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.JobInfo;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.TaskAttemptInfo;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.TaskInfo;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormatCounter;
import org.apache.hadoop.mapreduce.v2.jobhistory.JobHistoryUtils;
import org.camdoop.shuffle.hadoop.CamdoopCounters;

/**
 * Reads a finished job's figures from its JobHistory file ({@code .jhist}), the one source that has, per successful
 * task attempt, the NodeManager it ran on, its finish time and its counters. The file is looked up in the cluster's
 * intermediate and final done directories (the JobHistoryServer moves it from one to the other).
 */
final class JobHistoryFigures {

    static final String CAMDOOP_GROUP = CamdoopCounters.GROUP;
    static final String LINK_BYTES = CamdoopCounters.LINK_BYTES;
    static final String RECEIVED = CamdoopCounters.BYTES_RECEIVED;
    static final String MAP_OUTPUTS = CamdoopCounters.MAP_OUTPUT_BYTES;
    static final String COMBINED = CamdoopCounters.RECORDS_COMBINED;
    static final String FALLBACKS = CamdoopCounters.STOCK_FALLBACKS;

    /** FILE_BYTES_WRITTEN: the local file system's scheme, where the task's spills, merges and (here) output go. */
    private static final String LOCAL_SCHEME = "file";

    /** How long to wait for the history file of a job the client already saw finish. */
    private static final long WAIT_MILLIS = 60_000;

    private JobHistoryFigures() {
    }

    /**
     * The figures of {@code jobId}; {@code camdoop} says which network figure applies; {@code clusterDir} holds the
     * NodeManagers' log directories (for the {@link FetcherLogs}).
     */
    static JobFigures of(Configuration clusterConf, java.nio.file.Path clusterDir, String jobId, String job,
            boolean camdoop) throws IOException, InterruptedException {
        JobInfo info = parse(clusterConf, jobId);
        long lastMapFinish = 0;
        List<NetworkEstimate.MapSide> maps = new ArrayList<>();
        List<NetworkEstimate.ReduceSide> reduces = new ArrayList<>();
        long diskBytes = 0;
        long outputBytes = 0;
        Set<String> nodes = new HashSet<>();
        Map<String, String> nodeOfAttempt = new HashMap<>();
        for (TaskInfo task : info.getAllTasks().values()) {
            if (task.getTaskType() == TaskType.MAP) {
                // Any map attempt's output may have been fetched before a retry replaced it.
                task.getAllTaskAttempts().values().forEach(a -> nodeOfAttempt.put(a.getAttemptId().toString(),
                        a.getHostname() + ":" + a.getPort()));
            }
            TaskAttemptInfo attempt = task.getAllTaskAttempts().get(task.getSuccessfulAttemptId());
            if (attempt == null) {
                continue;
            }
            // MiniYARN's NodeManagers share a host name: the NodeManager's RPC port tells them apart.
            String node = attempt.getHostname() + ":" + attempt.getPort();
            nodes.add(node);
            Counters c = attempt.getCounters();
            if (task.getTaskType() == TaskType.MAP) {
                lastMapFinish = Math.max(lastMapFinish, attempt.getFinishTime());
                maps.add(new NetworkEstimate.MapSide(node, value(c, TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES)));
            } else if (task.getTaskType() == TaskType.REDUCE) {
                reduces.add(new NetworkEstimate.ReduceSide(node, value(c, TaskCounter.REDUCE_SHUFFLE_BYTES)));
                nodeOfAttempt.put(attempt.getAttemptId().toString(), node);
                diskBytes += c == null ? 0 : c.findCounter(LOCAL_SCHEME, FileSystemCounter.BYTES_WRITTEN).getValue();
                outputBytes += c == null ? 0 : c.findCounter(FileOutputFormatCounter.BYTES_WRITTEN).getValue();
            }
        }
        Counters total = info.getTotalCounters();
        long estimate = camdoop ? 0 : NetworkEstimate.remoteShuffleBytes(maps, reduces);
        long network;
        String source;
        if (camdoop) {
            network = camdoop(total, LINK_BYTES);
            source = "torus-link-counter";
        } else {
            List<FetcherLogs.Fetch> fetches = FetcherLogs.read(clusterDir, jobId);
            long shuffled = reduces.stream().mapToLong(NetworkEstimate.ReduceSide::shuffleBytes).sum();
            // Exact only if the logs account for every byte the successful reduces shuffled.
            boolean complete = shuffled > 0 && FetcherLogs.fetchedBytes(fetches, nodeOfAttempt) == shuffled;
            network = complete ? FetcherLogs.remoteBytes(fetches, nodeOfAttempt) : estimate;
            source = complete ? "fetcher-logs" : "estimate";
        }
        return new JobFigures(job, camdoop ? "camdoop" : "stock", jobId,
                (info.getFinishTime() - info.getLaunchTime()) / 1000.0, (info.getFinishTime() - lastMapFinish) / 1000.0,
                network, source, estimate, diskBytes, outputBytes, value(total, TaskCounter.REDUCE_SHUFFLE_BYTES),
                value(total, TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES), camdoop(total, RECEIVED),
                camdoop(total, MAP_OUTPUTS), camdoop(total, COMBINED), camdoop(total, FALLBACKS), maps.size(),
                reduces.size(), nodes.size());
    }

    private static long value(Counters c, TaskCounter counter) {
        return c == null ? 0 : c.findCounter(counter).getValue();
    }

    private static long camdoop(Counters c, String name) {
        return c == null ? 0 : c.findCounter(CAMDOOP_GROUP, name).getValue();
    }

    /** Parses the job's history file, waiting for it to appear in (or move between) the done directories. */
    private static JobInfo parse(Configuration conf, String jobId) throws IOException, InterruptedException {
        List<Path> dirs = List.of(new Path(JobHistoryUtils.getConfiguredHistoryIntermediateDoneDirPrefix(conf)),
                new Path(JobHistoryUtils.getConfiguredHistoryServerDoneDirPrefix(conf)));
        long deadline = System.currentTimeMillis() + WAIT_MILLIS;
        while (true) {
            for (Path dir : dirs) {
                FileSystem fs = dir.getFileSystem(conf);
                try {
                    Path file = find(fs, dir, jobId);
                    if (file != null) {
                        JobInfo info = new JobHistoryParser(fs, file).parse();
                        if (info.getFinishTime() > 0) {
                            return info;
                        }
                    }
                } catch (FileNotFoundException e) {
                    // Moved from the intermediate to the done directory while we looked: look again.
                }
            }
            if (System.currentTimeMillis() > deadline) {
                throw new IOException("no JobHistory file for " + jobId + " under " + dirs);
            }
            Thread.sleep(500);
        }
    }

    private static Path find(FileSystem fs, Path dir, String jobId) throws IOException {
        if (!fs.exists(dir)) {
            return null;
        }
        RemoteIterator<LocatedFileStatus> files = fs.listFiles(dir, true);
        while (files.hasNext()) {
            Path p = files.next().getPath();
            if (p.getName().startsWith(jobId + "-") && p.getName().endsWith(".jhist")) {
                return p;
            }
        }
        return null;
    }
}
