package org.camdoop.torus.transport.link;

/** User event fired down the pipeline when a handshake fails, refused by either side; the connection then closes. */
public record LinkRefused(String reason) {
}
