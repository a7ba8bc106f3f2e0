package org.camdoop.sim;

/**
 * One simulated shuffle.
 *
 * @param seconds           when the last byte reached its root
 * @param bytesIntoRoots    bytes the simulated roots received over links
 * @param busiestLinkBytes  the most bytes any (reduced) link carried; over the link rate, a lower bound on seconds
 * @param flows             flows simulated
 * @param links             links (orbits, when reduced) simulated
 * @param steps             time steps the event loop took
 */
public record SimResult(double seconds, double bytesIntoRoots, double busiestLinkBytes, int flows, int links,
        int steps) {
}
