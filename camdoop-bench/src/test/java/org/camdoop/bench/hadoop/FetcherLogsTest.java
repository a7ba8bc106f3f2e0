package org.camdoop.bench.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.camdoop.bench.hadoop.FetcherLogs.Fetch;
import org.junit.jupiter.api.Test;

class FetcherLogsTest {

    private static final String R1 = "attempt_17_0005_r_000001_0";

    /** Lines as a reduce task with {@link FetcherLogs#LOGGING_OPTION} writes them (SLF4J simple logger). */
    private static final List<String> LOG = List.of(
            "2026-11-21 08:31:59,339 [main] WARN org.apache.hadoop.metrics2.impl.MetricsSystemImpl - ReduceTask metrics"
                    + " system already initialized!",
            "2026-11-21 08:32:00,101 [EventFetcher for fetching Map Completion Events] INFO"
                    + " org.apache.hadoop.mapreduce.task.reduce.EventFetcher - " + R1
                    + " Thread started: EventFetcher for fetching Map Completion Events",
            "2026-11-21 08:32:01,000 [fetcher#1] INFO org.apache.hadoop.mapreduce.task.reduce.Fetcher - fetcher#1 about"
                    + " to shuffle output of map attempt_17_0005_m_000000_0 decomp: 5488983 len: 5488987 to DISK",
            "2026-11-21 08:32:01,500 [fetcher#2] INFO org.apache.hadoop.mapreduce.task.reduce.Fetcher - fetcher#2 about"
                    + " to shuffle output of map attempt_17_0005_m_000002_1 decomp: 96 len: 100 to MEMORY");

    @Test
    void eachFetchLineIsAMapOutputTheNamedReduceCopied() {
        assertEquals(List.of(new Fetch(R1, "attempt_17_0005_m_000000_0", 5488987),
                new Fetch(R1, "attempt_17_0005_m_000002_1", 100)), FetcherLogs.parse(LOG));
    }

    @Test
    void withoutTheReduceAttemptTheFetchesCannotBePlaced() {
        assertEquals(List.of(), FetcherLogs.parse(List.of(LOG.get(2), LOG.get(3))));
    }

    @Test
    void onlyFetchesFromAnotherNodeByASuccessfulReduceCrossTheNetwork() {
        List<Fetch> fetches = List.of(new Fetch("r1", "m1", 10), new Fetch("r1", "m2", 20),
                new Fetch("r1-failed", "m2", 40), new Fetch("r2", "m1", 80));
        Map<String, String> nodes = Map.of("r1", "a", "r2", "b", "m1", "a", "m2", "b");
        assertEquals(20 + 80, FetcherLogs.remoteBytes(fetches, nodes));
        assertEquals(10 + 20 + 80, FetcherLogs.fetchedBytes(fetches, nodes));
    }
}
