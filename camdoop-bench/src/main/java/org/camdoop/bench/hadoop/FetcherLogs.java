package org.camdoop.bench.hadoop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The exact bytes each stock reduce attempt fetched from each map attempt, from the reduce tasks' own log: Hadoop's
 * {@code Fetcher} logs every map output it copies ({@code fetcher#1 about to shuffle output of map attempt_... decomp:
 * D len: L to MEMORY}; {@code L} is what REDUCE_SHUFFLE_BYTES adds up) and {@code EventFetcher} names the reduce
 * attempt. Those lines are INFO, which the tasks' SLF4J simple logger drops unless {@link #LOGGING_OPTION} is given to
 * the job; with it they land in the container's {@code stderr} under the NodeManagers' log directories.
 */
final class FetcherLogs {

    /** The job option that makes reduce tasks log their fetches (the heap is still derived from the container size). */
    static final String LOGGING_OPTION =
            "-Dmapreduce.reduce.java.opts=-Dorg.slf4j.simpleLogger.log.org.apache.hadoop.mapreduce.task.reduce=info";

    private static final Pattern REDUCE =
            Pattern.compile("\\b(attempt_\\d+_\\d+_r_\\d+_\\d+) Thread started: EventFetcher");
    private static final Pattern FETCH = Pattern.compile(
            "about to shuffle output of map (attempt_\\d+_\\d+_m_\\d+_\\d+) decomp: \\d+ len: (\\d+)");

    /** One map output one reduce attempt copied. */
    record Fetch(String reduceAttempt, String mapAttempt, long bytes) {
    }

    private FetcherLogs() {
    }

    /** The fetches in one reduce container's log lines; none if the lines do not name the reduce attempt. */
    static List<Fetch> parse(List<String> lines) {
        String reduce = null;
        List<String[]> copies = new ArrayList<>();
        for (String line : lines) {
            Matcher r = REDUCE.matcher(line);
            if (r.find()) {
                reduce = r.group(1);
            }
            Matcher f = FETCH.matcher(line);
            if (f.find()) {
                copies.add(new String[] {f.group(1), f.group(2)});
            }
        }
        if (reduce == null) {
            return List.of();
        }
        List<Fetch> out = new ArrayList<>();
        for (String[] c : copies) {
            out.add(new Fetch(reduce, c[0], Long.parseLong(c[1])));
        }
        return out;
    }

    /**
     * Bytes the reduce attempts in {@code nodes} fetched from map attempts on another node. {@code nodes} maps attempt
     * ids to the NodeManager they ran on: the successful reduce attempts and every map attempt.
     */
    static long remoteBytes(List<Fetch> fetches, java.util.Map<String, String> nodes) {
        long remote = 0;
        for (Fetch f : fetches) {
            String reduceNode = nodes.get(f.reduceAttempt());
            String mapNode = nodes.get(f.mapAttempt());
            if (reduceNode != null && mapNode != null && !mapNode.equals(reduceNode)) {
                remote += f.bytes();
            }
        }
        return remote;
    }

    /** Bytes the reduce attempts in {@code nodes} fetched in all, local or not. */
    static long fetchedBytes(List<Fetch> fetches, java.util.Map<String, String> nodes) {
        return fetches.stream().filter(f -> nodes.containsKey(f.reduceAttempt())).mapToLong(Fetch::bytes).sum();
    }

    /** Every fetch logged by the containers of {@code jobId} under {@code clusterDir} (the NodeManagers' log dirs). */
    static List<Fetch> read(Path clusterDir, String jobId) throws IOException {
        String app = jobId.replaceFirst("^job_", "application_");
        List<Fetch> all = new ArrayList<>();
        if (!Files.isDirectory(clusterDir)) {
            return all;
        }
        List<Path> logs;
        try (Stream<Path> files = Files.walk(clusterDir)) {
            logs = files.filter(p -> p.getFileName().toString().equals("stderr"))
                    .filter(p -> p.getParent() != null && p.getParent().getParent() != null
                            && p.getParent().getParent().getFileName().toString().equals(app))
                    .toList();
        }
        for (Path log : logs) {
            // Lenient decoding: a task's stderr may hold any bytes.
            all.addAll(parse(new String(Files.readAllBytes(log), StandardCharsets.UTF_8).lines().toList()));
        }
        return all;
    }
}
