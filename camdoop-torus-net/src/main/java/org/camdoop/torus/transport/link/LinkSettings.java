package org.camdoop.torus.transport.link;

/**
 * What one link's pipeline needs to know of the transport's configuration, as a value, so the link layer depends on
 * no transport class ({@code TransportConfig#linkSettings()} builds it).
 *
 * @param maxFrameBytes           largest frame the decoder accepts
 * @param handshakeTimeoutNanos   how long a link may take to prove itself
 * @param heartbeatIntervalNanos  idle time after which a heartbeat is sent
 * @param heartbeatTimeoutNanos   silence after which the link is declared dead
 * @param shapingBytesPerSecond   inbound rate limit, 0 for none
 * @param shapingBurstBytes       burst the inbound shaper allows
 */
public record LinkSettings(int maxFrameBytes, long handshakeTimeoutNanos, long heartbeatIntervalNanos,
        long heartbeatTimeoutNanos, long shapingBytesPerSecond, long shapingBurstBytes) {
}
