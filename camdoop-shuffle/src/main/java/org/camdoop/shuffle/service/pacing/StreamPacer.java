package org.camdoop.shuffle.service.pacing;

import org.camdoop.shuffle.service.plan.StreamEdge;
import org.camdoop.shuffle.service.vertex.VertexOutput;

/**
 * Decides how fast a non-root vertex's stream may send, by decorating its {@link VertexOutput}. The production daemon
 * uses {@link #NONE}; benchmarks use {@link SwitchPacer} to model servers on a switch.
 */
@FunctionalInterface
public interface StreamPacer {

    /** No pacing: the output as it is. */
    StreamPacer NONE = (edge, output) -> output;

    /** The output the vertex sending on {@code edge} should use instead of {@code output}. */
    VertexOutput pace(StreamEdge edge, VertexOutput output);
}
