package org.camdoop.torus.transport.link;

/** User event fired down the pipeline when the handshake succeeds; handlers after the handshake start work on it. */
public record LinkEstablished(int peer) {
}
