package org.camdoop.torus.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.link.HandshakeAdmission;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A real daemon's port, connected to by anyone: at most {@link HandshakeAdmission#MAX_IN_PROGRESS} connections that
 * have not proved the cluster secret are kept (until the handshake timeout); the ones over that are closed at
 * once, unanswered. Found by review: nothing bounded them.
 */
@Timeout(60)
class HandshakesInProgressTest {

    private static final TorusShape SHAPE = new TorusShape(3, 1, 1);
    private static final Coord NODE = new Coord(2, 0, 0);
    private static final int OVER = 6;

    @Test
    void connectionsOverTheCapOfHandshakesInProgressAreClosedAtOnce() throws Exception {
        Topology topo = Nodes.loopback(SHAPE);
        InetSocketAddress a = (InetSocketAddress) topo.address(SHAPE.index(NODE));
        List<Socket> sockets = new ArrayList<>();
        TransportConfig config = TransportConfig.of(java.util.Map.of(TransportConfig.CLUSTER_SECRET, Nodes.secret("s"),
                TransportConfig.HANDSHAKE_TIMEOUT_MS, "30000"));
        try (TorusNode node = TorusNode.start(config, topo, NODE)) {
            for (int i = 0; i < HandshakeAdmission.MAX_IN_PROGRESS + OVER; i++) {
                Socket s = new Socket();
                sockets.add(s);
                s.connect(new InetSocketAddress(a.getHostString(), a.getPort()), 2000);
            }
            int closed = 0;
            int open = 0;
            for (Socket s : sockets) {
                s.setSoTimeout(50);
                try {
                    if (s.getInputStream().read() < 0) {
                        closed++;
                    }
                } catch (SocketTimeoutException stillInItsHandshake) {
                    open++;
                } catch (IOException reset) {
                    closed++;
                }
            }
            assertEquals(OVER, closed, "connections closed at once");
            assertEquals(HandshakeAdmission.MAX_IN_PROGRESS, open, "connections kept for their handshake");
        } finally {
            for (Socket s : sockets) {
                s.close();
            }
        }
    }
}
