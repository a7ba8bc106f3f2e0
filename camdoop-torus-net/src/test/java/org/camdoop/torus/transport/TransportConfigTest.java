package org.camdoop.torus.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Start-up refusals of the transport's configuration, word for word. */
class TransportConfigTest {

    @Test
    void aClusterSecretShorterThan32BytesIsRefused() {
        TransportConfig c = TransportConfig.of(Map.of(TransportConfig.CLUSTER_SECRET, "cluster-secret"));
        IllegalStateException e = assertThrows(IllegalStateException.class, c::clusterSecret);
        assertEquals("camdoop.cluster.secret is 14 bytes long; it must have at least 32 (a long random string, the same"
                + " on every daemon)", e.getMessage());
        assertEquals(32, TransportConfig.of(Map.of(TransportConfig.CLUSTER_SECRET, "x".repeat(32))).clusterSecret()
                .length());
    }

    @Test
    void capsMustHoldAFrame() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TransportConfig.of(Map.of(TransportConfig.TRANSIT_MAX_BYTES, "1000")));
        assertEquals("camdoop.transport.transit.max.bytes (1000) must hold at least one frame of"
                + " camdoop.transport.frame.max.bytes (66560)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> TransportConfig.of(Map.of(TransportConfig.SERVICE_QUEUE_MAX_BYTES, "1000")));
        assertEquals("camdoop.transport.service.queue.max.bytes (1000) must hold at least one frame of"
                + " camdoop.transport.frame.max.bytes (66560)", e.getMessage());
    }

    @Test
    void tlsOnWithoutContextsIsRefusedAtStart() throws Exception {
        org.camdoop.torus.topology.TorusShape shape = new org.camdoop.torus.topology.TorusShape(2, 1, 1);
        TransportConfig c = Nodes.config("tls").with(TransportConfig.SSL_ENABLED, true);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TorusNode.start(c, Nodes.loopback(shape), shape.coord(0)));
        assertEquals("camdoop.transport.ssl.enabled is true but no TLS contexts were given to the transport of 0,0,0",
                e.getMessage());
    }
}
