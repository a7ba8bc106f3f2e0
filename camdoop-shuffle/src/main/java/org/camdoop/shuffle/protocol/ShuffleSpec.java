package org.camdoop.shuffle.protocol;

import java.util.Collections;
import java.util.SortedSet;
import java.util.TreeSet;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.trees.TreeChoice;

/**
 * One shuffle: the data of one reduce partition of one job, flowing to the root (the server running that reduce task).
 * The root's daemon sends this to every daemon; each derives its part of the work from it alone.
 *
 * @param jobKey   the job's 64-bit key on the wire (a hash of {@code jobId})
 * @param jobId    Hadoop's job id, e.g. {@code job_1700000000000_0001}
 * @param partition the reduce partition
 * @param attempt  the reduce task attempt this shuffle feeds: a retried attempt is a new shuffle, with its own streams
 * @param root     the coordinate of the server running the reduce task
 * @param mode     camdoop, noagg or direct
 * @param trees    six disjoint trees or one shortest-path tree (ignored in direct mode)
 * @param expectedAttempts the successful map attempts the reducer counts on, exactly once each
 * @param generation which run of the shuffle this is: its failure view and where it resumes (paper section 4.2)
 */
public record ShuffleSpec(long jobKey, String jobId, int partition, int attempt, Coord root, ShuffleMode mode,
        TreeChoice trees, SortedSet<String> expectedAttempts, ShuffleGeneration generation) {

    /**
     * The most map attempts a shuffle may list: what a task's or a peer's START may make a daemon hold (a list costs
     * about 130 bytes an attempt once parsed). A job of more maps shuffles on the stock shuffle (the plug-in falls back
     * when its daemon refuses the start).
     */
    public static final int MAX_MAP_ATTEMPTS = 1 << 18;

    public ShuffleSpec {
        if (partition < 0 || attempt < 0) {
            throw new IllegalArgumentException("partition and attempt must be >= 0, got " + partition + ", " + attempt);
        }
        if (expectedAttempts.size() > MAX_MAP_ATTEMPTS) {
            throw new IllegalArgumentException("a shuffle of " + jobId + " listing " + expectedAttempts.size()
                    + " map attempts (at most " + MAX_MAP_ATTEMPTS + ")");
        }
        expectedAttempts = Collections.unmodifiableSortedSet(new TreeSet<>(expectedAttempts));
    }

    /** The first run of a shuffle ({@link ShuffleGeneration#FIRST}); its root fills in the failure view it starts on. */
    public ShuffleSpec(long jobKey, String jobId, int partition, int attempt, Coord root, ShuffleMode mode,
            TreeChoice trees, SortedSet<String> expectedAttempts) {
        this(jobKey, jobId, partition, attempt, root, mode, trees, expectedAttempts, ShuffleGeneration.FIRST);
    }

    /** The same shuffle as another generation. */
    public ShuffleSpec withGeneration(ShuffleGeneration g) {
        return new ShuffleSpec(jobKey, jobId, partition, attempt, root, mode, trees, expectedAttempts, g);
    }

    /** The same shuffle reading {@code attempts} (a lost map output replaced by its map's new attempt). */
    public ShuffleSpec withAttempts(SortedSet<String> attempts) {
        return new ShuffleSpec(jobKey, jobId, partition, attempt, root, mode, trees, attempts, generation);
    }

    /** This shuffle's map attempts with each key of {@code replacements} replaced by its value. */
    public SortedSet<String> attemptsReplacing(java.util.Map<String, String> replacements) {
        return replacing(expectedAttempts, replacements);
    }

    /**
     * {@code attempts} with each key of {@code replacements} replaced by its value: the set a resumed shuffle reads.
     * The reduce task proves this set and its root daemon checks the proof over it, so both compute it here.
     */
    public static SortedSet<String> replacing(SortedSet<String> attempts, java.util.Map<String, String> replacements) {
        SortedSet<String> out = new TreeSet<>(attempts);
        out.removeAll(replacements.keySet());
        out.addAll(replacements.values());
        return out;
    }

    /**
     * What this shuffle's streams and service messages carry as their job: the job key mixed with the reduce attempt,
     * so the leftovers of a failed attempt can never be mistaken for the streams of its retry.
     */
    public long streamKey() {
        return streamKey(generation.number());
    }

    /**
     * The stream key of generation {@code number} of this shuffle: generations differ in it too, so a restarted
     * shuffle's streams never meet its earlier generation's leftovers (generation 0 keeps the key it always had).
     */
    public long streamKey(int number) {
        return jobKey ^ (attempt * 0x9E3779B97F4A7C15L) ^ (number * 0xC2B2AE3D27D4EB4FL);
    }

    /** The low bits of this job's vertex identifiers: where a failed server's vertices go differs per job. */
    public long salt() {
        return jobKey;
    }

    /**
     * One line for logs: {@code job_..._0001 partition 3 attempt 0 -> root 1,2,0 (camdoop, six trees, 27 map
     * attempts)}, then {@code generation 1} for a restarted run.
     */
    public String describe() {
        return jobId + " partition " + partition + " attempt " + attempt + " -> root " + root + " (" + mode.label()
                + (mode == ShuffleMode.DIRECT ? "" : ", " + trees.label() + " trees") + ", "
                + expectedAttempts.size() + " map attempts)"
                + (generation.number() == 0 ? "" : " generation " + generation.number());
    }
}
