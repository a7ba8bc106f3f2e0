package org.camdoop.examples.minicluster;

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

    /** Picks a free port per coordinate. */
    static TorusLayout allocate(TorusShape shape, int nodes) throws IOException {
        int[] ports = new int[shape.size()];
        // All sockets open at once so no two coordinates get the same port.
        List<ServerSocket> held = new ArrayList<>();
        try {
            for (int i = 0; i < ports.length; i++) {
                ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
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
