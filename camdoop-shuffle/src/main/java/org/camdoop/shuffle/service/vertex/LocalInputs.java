package org.camdoop.shuffle.service.vertex;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.SortedSet;
import org.camdoop.shuffle.aggregation.JobAggregationSpec;
import org.camdoop.shuffle.aggregation.KeyStriper;
import org.camdoop.shuffle.aggregation.MapOutputPartitionSource;
import org.camdoop.shuffle.aggregation.SortedRun;
import org.camdoop.shuffle.protocol.MapAttemptSummary;
import org.camdoop.shuffle.service.plan.VertexPlan;

/**
 * Opens a vertex's slice of this server's map outputs: one run per map output of an attempt the reducer expects
 * (outputs of other attempts, e.g. a killed speculative twin, are left alone), filtered to the vertex's stripe.
 *
 * @param runs     the runs to merge, opened
 * @param attempts the attempts they came from, for the end-of-stream summary
 */
public record LocalInputs(List<SortedRun> runs, MapAttemptSummary attempts) {

    /** No local data: a vertex hosted for a failed server, or a server that ran no map of the job. */
    public static LocalInputs none() {
        return new LocalInputs(List.of(), MapAttemptSummary.of("local", List.of()));
    }

    /**
     * @throws IOException if a map output cannot be opened (missing file, bad index); runs opened so far are closed
     */
    public static LocalInputs open(JobAggregationSpec spec, Collection<LocalMapOutput> outputs,
            SortedSet<String> expected, int partition, VertexPlan.LocalSlice slice) throws IOException {
        List<SortedRun> runs = new ArrayList<>();
        List<String> attempts = new ArrayList<>();
        KeyStriper striper = slice.stripes() > 1 ? new KeyStriper(slice.stripes()) : null;
        try {
            for (LocalMapOutput out : outputs) {
                if (!expected.contains(out.attemptId())) {
                    continue;
                }
                SortedRun run = MapOutputPartitionSource.locate(spec, out.files(), partition).open();
                runs.add(striper == null ? run : striper.stripe(run, slice.stripe()));
                attempts.add(out.attemptId());
            }
        } catch (IOException | RuntimeException e) {
            for (SortedRun r : runs) {
                try {
                    r.close();
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
        return new LocalInputs(runs, MapAttemptSummary.of("local", attempts));
    }
}
