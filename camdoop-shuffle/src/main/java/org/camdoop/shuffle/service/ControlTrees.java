package org.camdoop.shuffle.service;

/**
 * The "tree" numbers of service messages, apart from the data trees (0 to 5) of vertex streams: a service message
 * travels as a stream id whose tree is one of these, so no data stream can be mistaken for it. Stateless.
 */
final class ControlTrees {
    /** Shuffle control (START, its ACK, ABORT), on the job's partition. */
    static final int CONTROL = 255;
    /** The job spec broadcast (SPEC, JAR_PART). */
    static final int BROADCAST = 254;
    // 253 is the transport's own (its liveness probes, which never reach this layer): not to be used here.

    private ControlTrees() {}
}
