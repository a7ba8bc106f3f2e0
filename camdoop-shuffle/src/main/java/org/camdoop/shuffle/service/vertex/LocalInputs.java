package org.camdoop.shuffle.service.vertex;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import org.camdoop.shuffle.aggregation.JobAggregationSpec;
import org.camdoop.shuffle.aggregation.KeyStriper;
import org.camdoop.shuffle.aggregation.MapOutputPartitionSource;
import org.camdoop.shuffle.aggregation.ReadaheadPool;
import org.camdoop.shuffle.aggregation.ResumingRun;
import org.camdoop.shuffle.aggregation.RunSource;
import org.camdoop.shuffle.aggregation.SortedRun;
import org.camdoop.shuffle.aggregation.StripeDemux;
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

    /**
     * A vertex reading a slice of the local map outputs; {@code waker} reschedules it (see {@link StripeDemux}). A
     * vertex of a repaired tree skips its slice's keys at or before its tree's {@code resumeAfter}.
     */
    public record Reader(VertexPlan.LocalSlice slice, Runnable waker, Optional<byte[]> resumeAfter) {

        public Reader(VertexPlan.LocalSlice slice, Runnable waker) {
            this(slice, waker, Optional.empty());
        }
    }

    /** No local data: a vertex hosted for a failed server, or a server that ran no map of the job. */
    public static LocalInputs none() {
        return new LocalInputs(List.of(), MapAttemptSummary.of("local", List.of()));
    }

    /**
     * One vertex's slice, read with a cursor of its own over each map output (no sharing between vertices).
     *
     * @throws IOException if a map output cannot be opened (missing file, bad index); runs opened so far are closed
     */
    public static LocalInputs open(JobAggregationSpec spec, Collection<LocalMapOutput> outputs,
            SortedSet<String> expected, int partition, VertexPlan.LocalSlice slice) throws IOException {
        return openShared(spec, outputs, expected, partition, List.of(new Reader(slice, () -> { })),
                ReadaheadPool.NONE, Optional.empty()).get(0);
    }

    /**
     * The slices of all of this daemon's vertices of one shuffle, in the order of {@code readers}: each map output is
     * located once and, where several vertices read stripes of it, decoded once by a {@link StripeDemux} shared by
     * them, whose lagging stripes may borrow from {@code readahead}. A restarted generation's readers skip the keys
     * at or before {@code resumeAfter} ({@link ResumingRun}) before any stripe sees them.
     *
     * @throws IOException if a map output cannot be opened (missing file, bad index); runs opened so far are closed
     */
    public static List<LocalInputs> openShared(JobAggregationSpec spec, Collection<LocalMapOutput> outputs,
            SortedSet<String> expected, int partition, List<Reader> readers, ReadaheadPool readahead,
            Optional<byte[]> resumeAfter) throws IOException {
        List<List<SortedRun>> runs = new ArrayList<>();
        readers.forEach(r -> runs.add(new ArrayList<>()));
        List<String> attempts = new ArrayList<>();
        try {
            for (LocalMapOutput out : outputs) {
                if (!expected.contains(out.attemptId())) {
                    continue;
                }
                RunSource located = MapOutputPartitionSource.locate(spec, out.files(), partition);
                RunSource source = resumeAfter.isEmpty() ? located
                        : ResumingRun.resuming(located, spec.sortComparator(), resumeAfter.get());
                Map<Integer, StripeDemux> demuxes = new HashMap<>();
                for (int i = 0; i < readers.size(); i++) {
                    SortedRun run = openSlice(source, out.attemptId() + " partition " + partition, readers, i, demuxes,
                            readahead);
                    Optional<byte[]> skip = readers.get(i).resumeAfter();
                    runs.get(i).add(skip.isEmpty() ? run : new ResumingRun(run, spec.sortComparator(), skip.get()));
                }
                attempts.add(out.attemptId());
            }
        } catch (IOException | RuntimeException e) {
            for (List<SortedRun> list : runs) {
                for (SortedRun r : list) {
                    try {
                        r.close();
                    } catch (IOException suppressed) {
                        e.addSuppressed(suppressed);
                    }
                }
            }
            throw e;
        }
        List<LocalInputs> inputs = new ArrayList<>(readers.size());
        for (List<SortedRun> list : runs) {
            inputs.add(new LocalInputs(list, MapAttemptSummary.of("local", attempts)));
        }
        return inputs;
    }

    private static SortedRun openSlice(RunSource source, String label, List<Reader> readers,
            int i, Map<Integer, StripeDemux> demuxes, ReadaheadPool readahead) throws IOException {
        VertexPlan.LocalSlice slice = readers.get(i).slice();
        if (slice.stripes() == 1) {
            return source.open();
        }
        long sharing = readers.stream().filter(r -> r.slice().stripes() == slice.stripes()).count();
        long sameStripe = readers.stream().filter(r -> r.slice().equals(slice)).count();
        if (sharing == 1 || sameStripe > 1) {
            // Nothing to share (or two readers of one stripe, which a demux cannot tell apart): a cursor of its own.
            return new KeyStriper(slice.stripes()).stripe(source.open(), slice.stripe());
        }
        StripeDemux demux = demuxes.get(slice.stripes());
        if (demux == null) {
            demux = new StripeDemux(label, source,
                    new KeyStriper(slice.stripes()), StripeDemux.DEFAULT_STRIPE_BOUND_BYTES, readahead);
            demuxes.put(slice.stripes(), demux);
        }
        return demux.claim(slice.stripe(), readers.get(i).waker());
    }
}
