package org.camdoop.shuffle.endpoint;

import java.io.DataInputStream;
import java.io.IOException;
import java.util.Collection;
import java.util.SortedMap;
import java.util.TreeMap;
import org.camdoop.shuffle.protocol.LocalWire;
import org.camdoop.shuffle.protocol.MapOutput;

/**
 * A RESUME_SHUFFLE request, read and checked against the pause it answers ({@link LocalWire}): the new attempt of
 * each lost map, and the task's proof over the shuffle's new set of map attempts (checked by the caller, which knows
 * the set). Every replacement must be another attempt of the very map whose output was lost, so a task cannot swap
 * in another map's output, or another job's.
 *
 * @param replacements each lost map attempt and the new attempt of the same map that the shuffle reads instead
 * @param proof        {@code JobTokenProof.forShuffle} over the PAUSED nonce and the new map attempts
 */
record ResumeRequest(SortedMap<String, String> replacements, byte[] proof) {

    /**
     * Reads the body of a RESUME_SHUFFLE for a shuffle of {@code jobId} that lost the outputs of {@code lost}.
     *
     * @throws IllegalArgumentException saying what is wrong with it
     */
    static ResumeRequest read(DataInputStream body, String jobId, Collection<String> lost) throws IOException {
        int n = body.readInt();
        if (n != lost.size()) {
            throw new IllegalArgumentException("it names " + n + " new map attempts for the " + lost.size()
                    + " whose outputs were lost " + lost);
        }
        SortedMap<String, String> replacements = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            String old = body.readUTF();
            String now = body.readUTF();
            if (!lost.contains(old)) {
                throw new IllegalArgumentException("it replaces " + old + ", whose output was not lost " + lost);
            }
            MapOutput.checkMapAttempt(jobId, now);
            if (!taskOf(now).equals(taskOf(old)) || now.equals(old)) {
                throw new IllegalArgumentException("it replaces " + old + " by " + now
                        + ", which is not another attempt of the same map");
            }
            if (replacements.put(old, now) != null) {
                throw new IllegalArgumentException("it replaces " + old + " twice");
            }
        }
        return new ResumeRequest(replacements, LocalWire.readBytes(body));
    }

    /** "attempt_J_m_000003" of a canonical map attempt id "attempt_J_m_000003_1". */
    private static String taskOf(String attempt) {
        return attempt.substring(0, attempt.lastIndexOf('_'));
    }
}
