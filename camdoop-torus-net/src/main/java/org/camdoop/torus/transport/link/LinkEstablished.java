package org.camdoop.torus.transport.link;

/**
 * User event fired down the pipeline when the handshake succeeds; handlers after the handshake start work on it.
 *
 * @param peer            the neighbour's server index
 * @param peerIncarnation the neighbour's incarnation, as it announced and proved it: which run of its daemon process
 *                        is at the other end (a restarted daemon has a larger one)
 */
public record LinkEstablished(int peer, long peerIncarnation) {
}
