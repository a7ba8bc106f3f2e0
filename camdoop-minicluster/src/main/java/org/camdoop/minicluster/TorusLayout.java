package org.camdoop.minicluster;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.TorusShape;

/**
 * Which coordinate each daemon of a mini cluster takes, and the topology file saying where each listens: the
 * NodeManagers' daemons at the first {@code nodes} coordinates (by torus index), forwarding-only daemons at the rest,
 * all on 127.0.0.1 with ports that were free when the layout was made.
 */
final class TorusLayout {

    private final TorusShape shape;
    private final int nodes;
    private final int[] ports;

    private TorusLayout(TorusShape shape, int nodes, int[] ports) {
        this.shape = shape;
        this.nodes = nodes;
        this.ports = ports;
    }

    /** Lowest and highest port tried: below Linux's default ephemeral range (32768-60999). */
    private static final int FIRST_PORT = 20000;
    private static final int LAST_PORT = 32000;

    /**
     * Picks a free port per coordinate, outside the kernel's ephemeral range: a port picked from that range can be
     * taken by some outgoing connection (the cluster opens many) between the pick and the daemon's bind.
     */
    static TorusLayout allocate(TorusShape shape, int nodes) throws IOException {
        int[] ports = new int[shape.size()];
        // All sockets open at once so no two coordinates get the same port.
        List<ServerSocket> held = new ArrayList<>();
        java.util.Random random = new java.util.Random();
        try {
            for (int i = 0; i < ports.length; i++) {
                ServerSocket s = null;
                for (int tries = 0; s == null; tries++) {
                    int candidate = FIRST_PORT + random.nextInt(LAST_PORT - FIRST_PORT);
                    try {
                        s = new ServerSocket(candidate, 1, InetAddress.getLoopbackAddress());
                    } catch (IOException taken) {
                        if (tries > 200) {
                            throw new IOException("no free port between " + FIRST_PORT + " and " + LAST_PORT, taken);
                        }
                    }
                }
                held.add(s);
                ports[i] = s.getLocalPort();
            }
        } finally {
            for (ServerSocket s : held) {
                s.close();
            }
        }
        return new TorusLayout(shape, nodes, ports);
    }

    TorusShape shape() {
        return shape;
    }

    /** Coordinates whose daemon runs inside a NodeManager. */
    List<Coord> nodeManagerCoords() {
        List<Coord> coords = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            coords.add(shape.coord(i));
        }
        return coords;
    }

    /** Coordinates with a forwarding-only daemon (no NodeManager, so no map outputs and no reducers). */
    List<Coord> forwardingCoords() {
        List<Coord> coords = new ArrayList<>();
        for (int i = nodes; i < shape.size(); i++) {
            coords.add(shape.coord(i));
        }
        return coords;
    }

    /** Writes the topology file ({@code conf/topology.example} documents the format). */
    Path writeTopologyFile(Path file) throws IOException {
        StringBuilder text = new StringBuilder("# Written by camdoop minicluster: NodeManager daemons at the first ")
                .append(nodes).append(" coordinates, forwarding-only daemons at the rest.\n")
                .append("shape ").append(shape).append('\n');
        for (int i = 0; i < shape.size(); i++) {
            text.append(coordText(shape.coord(i))).append("  127.0.0.1:").append(ports[i]).append('\n');
        }
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }

    /** The {@code x,y,z} form the topology file and {@code camdoop.daemon.coordinate} use. */
    static String coordText(Coord c) {
        return c.x() + "," + c.y() + "," + c.z();
    }
}
