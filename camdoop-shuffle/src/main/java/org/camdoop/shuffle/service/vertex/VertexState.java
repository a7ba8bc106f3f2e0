package org.camdoop.shuffle.service.vertex;

/** The life of a vertex. Moves only forwards; DONE and FAILED are final. */
public enum VertexState {
    /** Created; its inputs are known but it has not been started with its local map outputs. */
    WAITING_FOR_INPUTS,
    /** Merging: emitting every key that all inputs have passed. */
    MERGING,
    /** All inputs ended and the merge is complete; output chunks still wait for credit. */
    DRAINING,
    /** End of stream sent. */
    DONE,
    /** Gave up; the reason went to the parent (or the reducer). */
    FAILED
}
