package org.camdoop.shuffle.aggregation;

/**
 * Picks the input whose current record has the smallest key. Only the winner ever changes between calls (it advances
 * or ends), which both a binary heap and a loser tree exploit. Ties go to the lower input index, so the merge order is
 * deterministic. Single-threaded.
 */
interface MinSelector {
    /** Starts over with {@code liveInputs[0, count)}: the inputs that have a current record. */
    void build(int[] liveInputs, int count);

    /** The input holding the smallest key, or -1 when every input has ended. */
    int winner();

    /** The winner moved to its next record. */
    void winnerAdvanced();

    /** The winner ended. */
    void winnerEnded();
}
