package org.camdoop.shuffle.hadoop;

import java.io.IOException;
import java.util.Collection;
import java.util.SortedMap;
import java.util.SortedSet;
import org.apache.hadoop.mapred.JobID;
import org.apache.hadoop.mapred.MapTaskCompletionEventsUpdate;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapred.TaskCompletionEvent;
import org.apache.hadoop.mapred.TaskUmbilicalProtocol;
import org.apache.hadoop.util.Progressable;

/**
 * Polls the umbilical for map completion events, as the stock EventFetcher does, until every map is accounted for
 * ({@link MapCompletionEvents}). Not thread-safe: the reduce task's thread.
 */
final class CompletionEventPoller {
    /** The stock EventFetcher's batch size (MRJobConfig.REDUCE_EVENTS_MAX_FETCH default is 10000 as well). */
    private static final int MAX_EVENTS = 10_000;

    private final TaskUmbilicalProtocol umbilical;
    private final TaskAttemptID reduce;
    private final MapCompletionEvents events;
    private final long pollMs;
    private int from;

    CompletionEventPoller(TaskUmbilicalProtocol umbilical, TaskAttemptID reduce, int maps, long pollMs) {
        this.umbilical = umbilical;
        this.reduce = reduce;
        this.events = new MapCompletionEvents(maps);
        this.pollMs = pollMs;
    }

    /** Waits until every map has a successful attempt (or failed as a whole) and returns the attempts that count. */
    SortedSet<String> awaitAllMaps(Progressable progress) throws IOException, InterruptedException {
        return poll(() -> events.missing() == 0 ? events.chosen() : null, Long.MAX_VALUE, progress);
    }

    /**
     * Waits up to {@code waitMs} until each of the {@code lost} attempts was replaced by another attempt of its map
     * ({@link MapCompletionEvents#replacementsFor}) and returns them; null if the time ran out first.
     *
     * @throws IOException also if a lost attempt's map failed as a whole
     */
    SortedMap<String, String> awaitReplacements(Collection<String> lost, long waitMs, Progressable progress)
            throws IOException, InterruptedException {
        try {
            return poll(() -> {
                SortedMap<String, String> r = events.replacementsFor(lost);
                return r.isEmpty() ? null : r;
            }, waitMs, progress);
        } catch (IllegalStateException | IllegalArgumentException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /** Polls until {@code done} returns non-null (returned) or {@code waitMs} passed (null). */
    private <T> T poll(java.util.function.Supplier<T> done, long waitMs, Progressable progress)
            throws IOException, InterruptedException {
        long start = System.nanoTime();
        while (true) {
            MapTaskCompletionEventsUpdate update = umbilical.getMapCompletionEvents(
                    (JobID) reduce.getJobID(), from, MAX_EVENTS, reduce);
            if (update.shouldReset()) {
                from = 0;
                events.reset();
                continue;
            }
            TaskCompletionEvent[] batch = update.getMapTaskCompletionEvents();
            for (TaskCompletionEvent e : batch) {
                events.apply(e);
            }
            from += batch.length;
            if (batch.length == MAX_EVENTS) {
                continue; // decide only once caught up: a later event of this backlog may undo what is read so far
            }
            T result = done.get();
            if (result != null) {
                return result;
            }
            if ((System.nanoTime() - start) / 1_000_000L >= waitMs) {
                return null;
            }
            progress.progress();
            Thread.sleep(pollMs);
        }
    }
}
