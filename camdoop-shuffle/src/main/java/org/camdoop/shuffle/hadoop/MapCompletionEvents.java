package org.camdoop.shuffle.hadoop;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapred.TaskCompletionEvent;

/**
 * Which map attempts a reduce attempt reads, learned from the map completion events with the stock shuffle's
 * semantics (EventFetcher and ShuffleSchedulerImpl):
 * <ul>
 *   <li>SUCCEEDED makes the attempt a candidate for its map. The stock shuffle fetches one attempt per map, the first
 *       it can; so here the first successful attempt of a map counts and a later SUCCEEDED of the same map (a
 *       speculative duplicate) only waits in reserve.</li>
 *   <li>OBSOLETE, FAILED and KILLED remove the attempt for good (the stock shuffle's obsolete set): if it was the one
 *       counting, the next successful attempt of that map in reserve counts instead, else the map is missing again.</li>
 *   <li>TIPFAILED: the whole map task failed and the job tolerates it (mapreduce.map.failures.maxpercent): the map
 *       has no output to wait for, and none of its attempts count.</li>
 *   <li>A reset (MapTaskCompletionEventsUpdate.shouldReset, after the AM restarted) forgets everything: the events are
 *       read again from 0.</li>
 * </ul>
 * Events of reduce attempts are ignored. {@link #chosen()} is complete when every map has an attempt or failed.
 * Not thread-safe: the reduce task's thread feeds and reads it.
 */
final class MapCompletionEvents {
    private final int maps;
    /** Per map, its successful attempts not made obsolete, in event order; the first counts. */
    private final List<LinkedHashSet<TaskAttemptID>> succeeded = new ArrayList<>();
    private final Set<TaskAttemptID> obsolete = new java.util.HashSet<>();
    private final BitSet tipFailed = new BitSet();

    MapCompletionEvents(int maps) {
        this.maps = maps;
        reset();
    }

    void reset() {
        succeeded.clear();
        for (int i = 0; i < maps; i++) {
            succeeded.add(new LinkedHashSet<>());
        }
        obsolete.clear();
        tipFailed.clear();
    }

    void apply(TaskCompletionEvent event) {
        TaskAttemptID attempt = event.getTaskAttemptId();
        if (!attempt.getTaskID().getTaskType().equals(org.apache.hadoop.mapreduce.TaskType.MAP)) {
            return;
        }
        int map = attempt.getTaskID().getId();
        if (map < 0 || map >= maps) {
            throw new IllegalArgumentException("event for map " + map + " of a job with " + maps + " maps: " + event);
        }
        switch (event.getTaskStatus()) {
            case SUCCEEDED -> {
                if (!obsolete.contains(attempt)) {
                    succeeded.get(map).add(attempt);
                }
            }
            case OBSOLETE, FAILED, KILLED -> {
                obsolete.add(attempt);
                succeeded.get(map).remove(attempt);
            }
            case TIPFAILED -> tipFailed.set(map);
            default -> throw new IllegalArgumentException("unknown completion status " + event.getTaskStatus());
        }
    }

    /** Maps that have neither a counting attempt nor failed as a whole. */
    int missing() {
        int n = 0;
        for (int i = 0; i < maps; i++) {
            if (!tipFailed.get(i) && succeeded.get(i).isEmpty()) {
                n++;
            }
        }
        return n;
    }

    /**
     * For each of the {@code lost} attempts, the attempt of its map that counts now, once it is another one (the
     * ApplicationMaster declared the lost one's output obsolete and a new attempt succeeded, or one in reserve took
     * over); empty until every lost attempt has one.
     *
     * @throws IllegalStateException if a lost attempt's map failed as a whole: there is nothing to wait for
     */
    java.util.SortedMap<String, String> replacementsFor(java.util.Collection<String> lost) {
        java.util.SortedMap<String, String> out = new java.util.TreeMap<>();
        for (String name : lost) {
            TaskAttemptID attempt = TaskAttemptID.forName(name);
            int map = attempt.getTaskID().getId();
            if (map < 0 || map >= maps) {
                throw new IllegalArgumentException("lost attempt " + name + " of a map outside the job's " + maps);
            }
            if (tipFailed.get(map)) {
                throw new IllegalStateException("map " + attempt.getTaskID() + ", whose output " + name
                        + " was lost, failed as a whole");
            }
            LinkedHashSet<TaskAttemptID> candidates = succeeded.get(map);
            if (candidates.isEmpty() || candidates.iterator().next().equals(attempt)) {
                return new java.util.TreeMap<>();
            }
            out.put(name, candidates.iterator().next().toString());
        }
        return out;
    }

    /** The attempt that counts for each map that has one. */
    SortedSet<String> chosen() {
        SortedSet<String> out = new TreeSet<>();
        for (int i = 0; i < maps; i++) {
            if (!tipFailed.get(i) && !succeeded.get(i).isEmpty()) {
                out.add(succeeded.get(i).iterator().next().toString());
            }
        }
        return out;
    }
}
