package org.camdoop.shuffle.daemon.status;

/**
 * What the status page draws: every daemon of the torus as one JSON object ({@code /torus.json}):
 *
 * <pre>
 * {"shape": "3x3x3", "self": "1,0,0", "time_ms": 1764000000000,
 *  "daemons": [{the /status.json of each daemon that answered}, ...], "unreachable": ["2,0,0", ...],
 *  "unreachable_reasons": {"2,0,0": "no complete answer within 2000 ms", ...}}
 * </pre>
 *
 * A daemon knows only its own links; the page joins both ends' reports of each link.
 */
@FunctionalInterface
public interface TorusView {

    /** The view now, as JSON. */
    String json();
}
