package org.camdoop.minicluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;

/**
 * The outcome of one run, printed as the runner's last line:
 * {@code {"exit": code, "seconds": s, "counters": {"NAME": value, ...}, "jobs": ["job_...", ...]}}.
 *
 * @param exit the examples program's exit status
 * @param seconds wall time of the program (cluster start and stop excluded)
 * @param counters every counter of the program's last job, by counter name ({@link JobCounters} says how clashes
 *     between groups are named)
 * @param jobs the ids of the jobs the program ran, in order
 */
public record MiniClusterResult(int exit, double seconds, Map<String, Long> counters, List<String> jobs) {

    public MiniClusterResult {
        counters = Map.copyOf(counters);
        jobs = List.copyOf(jobs);
    }

    /** The JSON line. */
    public String toJson() {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = mapper.createObjectNode();
        root.put("exit", exit);
        root.put("seconds", Math.round(seconds * 1000) / 1000.0);
        ObjectNode c = root.putObject("counters");
        counters.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> c.put(e.getKey(), e.getValue()));
        jobs.forEach(root.putArray("jobs")::add);
        return root.toString();
    }
}
