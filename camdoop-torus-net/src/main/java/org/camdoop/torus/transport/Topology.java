package org.camdoop.torus.transport;

import io.netty.channel.local.LocalAddress;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.TorusShape;

/**
 * Where each daemon listens: the torus shape and, per coordinate, a socket address. Coordinates without an address are
 * vacant. Parsed from the topology file ({@code conf/topology.example} documents the format):
 * <pre>
 * shape 3x3x3
 * 0,0,0  host-a:7710
 * 1,0,0  host-b:7710
 * </pre>
 * Immutable.
 */
public final class Topology {

    private final TorusShape shape;
    private final SocketAddress[] addresses;
    private final boolean local;

    private Topology(TorusShape shape, SocketAddress[] addresses, boolean local) {
        this.shape = shape;
        this.addresses = addresses;
        this.local = local;
    }

    /** An in-JVM topology: every coordinate of {@code shape} gets a {@link LocalAddress} unique to {@code cluster}. */
    public static Topology inJvm(TorusShape shape, String cluster) {
        SocketAddress[] a = new SocketAddress[shape.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = new LocalAddress("camdoop-" + cluster + "-" + shape.coord(i));
        }
        return new Topology(shape, a, true);
    }

    /** A TCP topology from explicit addresses (index = {@code shape.index(coord)}). */
    public static Topology tcp(TorusShape shape, Map<Coord, InetSocketAddress> byCoord) {
        SocketAddress[] a = new SocketAddress[shape.size()];
        byCoord.forEach((c, addr) -> a[shape.index(c)] = addr);
        return new Topology(shape, a, false);
    }

    public static Topology load(Path file) throws IOException {
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return parse(r, file.toString());
        }
    }

    public static Topology parse(String text) {
        try {
            return parse(new StringReader(text), "topology");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * @throws IllegalArgumentException naming the source and line of the first error
     */
    public static Topology parse(Reader reader, String source) throws IOException {
        BufferedReader in = new BufferedReader(reader);
        TorusShape shape = null;
        Map<Coord, InetSocketAddress> map = new HashMap<>();
        String line;
        int n = 0;
        while ((line = in.readLine()) != null) {
            n++;
            int hash = line.indexOf('#');
            String t = (hash >= 0 ? line.substring(0, hash) : line).trim();
            if (t.isEmpty()) {
                continue;
            }
            String[] parts = t.split("\\s+");
            try {
                if (parts[0].equals("shape")) {
                    if (parts.length != 2 || shape != null) {
                        throw new IllegalArgumentException("expected one 'shape AxBxC' line");
                    }
                    shape = TorusShape.parse(parts[1]);
                    continue;
                }
                if (shape == null) {
                    throw new IllegalArgumentException("the 'shape AxBxC' line must come first");
                }
                if (parts.length != 2) {
                    throw new IllegalArgumentException("expected 'x,y,z host:port'");
                }
                Coord c = Coord.parse(parts[0]);
                if (!shape.contains(c)) {
                    throw new IllegalArgumentException("coordinate " + c + " is outside the torus " + shape);
                }
                if (map.put(c, hostPort(parts[1])) != null) {
                    throw new IllegalArgumentException("coordinate " + c + " is listed twice");
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(source + ":" + n + ": " + e.getMessage(), e);
            }
        }
        if (shape == null) {
            throw new IllegalArgumentException(source + ": no 'shape AxBxC' line");
        }
        return tcp(shape, map);
    }

    private static InetSocketAddress hostPort(String s) {
        int colon = s.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("malformed address '" + s + "': expected host:port");
        }
        int port;
        try {
            port = Integer.parseInt(s.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("malformed port in '" + s + "'");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port out of range in '" + s + "'");
        }
        return InetSocketAddress.createUnresolved(s.substring(0, colon), port);
    }

    public TorusShape shape() {
        return shape;
    }

    /** The address of server {@code index}, or {@code null} if the coordinate is vacant. */
    public SocketAddress address(int index) {
        return addresses[index];
    }

    /** Whether this topology uses in-JVM channels rather than TCP. */
    public boolean inJvm() {
        return local;
    }
}
