package org.camdoop.torus.topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The shape a x b x c of a 3D torus (wraparound in every dimension). Servers are numbered
 * {@code index = x + a * (y + b * z)}; the index is what hot paths use, {@link Coord} is what people read.
 *
 * <p>Dimensions of size 1 have no links; a dimension of size 2 has one link per server (both directions reach the same
 * neighbour), so {@link #links()} lists it once, as {@code PLUS_*}.
 */
public final class TorusShape {

    private final int[] dims;
    private final int size;
    private final List<Port> links;

    public TorusShape(int a, int b, int c) {
        if (a < 1 || b < 1 || c < 1) {
            throw new IllegalArgumentException("torus dimensions must be >= 1, got " + a + "x" + b + "x" + c);
        }
        long n = (long) a * b * c;
        if (n > (1 << 24)) {
            throw new IllegalArgumentException("torus " + a + "x" + b + "x" + c + " has more than 2^24 servers");
        }
        this.dims = new int[] {a, b, c};
        this.size = (int) n;
        List<Port> l = new ArrayList<>(6);
        for (Port p : Port.values()) {
            int d = dims[p.axis()];
            if (d >= 3 || (d == 2 && p.sign() > 0)) {
                l.add(p);
            }
        }
        this.links = List.copyOf(l);
    }

    /**
     * Parses {@code AxBxC}, e.g. {@code 5x3x7}.
     *
     * @throws IllegalArgumentException with a one-line message
     */
    public static TorusShape parse(String text) {
        String[] parts = text.trim().toLowerCase().split("x", -1);
        if (parts.length != 3) {
            throw new IllegalArgumentException("malformed shape '" + text + "': expected AxBxC, e.g. 3x3x3");
        }
        int[] v = new int[3];
        for (int i = 0; i < 3; i++) {
            try {
                v[i] = Integer.parseInt(parts[i].trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("malformed shape '" + text + "': '" + parts[i] + "' is not an integer");
            }
        }
        return new TorusShape(v[0], v[1], v[2]);
    }

    /**
     * The most cube-like shape that holds {@code servers} servers: the smallest largest dimension (it sets the
     * diameter), then the fewest vacant coordinates, then the smallest spread between largest and smallest dimension.
     * Dimensions come out in ascending order; coordinates past the last server are vacant.
     */
    public static TorusShape forServers(int servers) {
        if (servers < 1) {
            throw new IllegalArgumentException("need at least one server, got " + servers);
        }
        for (int c = (int) Math.floor(Math.cbrt(servers)); ; c++) {
            int[] best = null;
            for (int a = 1; a <= c; a++) {
                for (int b = a; b <= c; b++) {
                    long volume = (long) a * b * c;
                    if (volume < servers) {
                        continue;
                    }
                    if (best == null || volume < (long) best[0] * best[1] * best[2]
                            || (volume == (long) best[0] * best[1] * best[2] && c - a < c - best[0])) {
                        best = new int[] {a, b, c};
                    }
                }
            }
            if (best != null) {
                return new TorusShape(best[0], best[1], best[2]);
            }
        }
    }

    /** Size along {@code axis} (0 = x, 1 = y, 2 = z). */
    public int dim(int axis) {
        return dims[axis];
    }

    /** Number of coordinates, a * b * c (live, failed and vacant alike). */
    public int size() {
        return size;
    }

    /** The ports that have a link of their own on every server, in {@link Port} order. */
    public List<Port> links() {
        return links;
    }

    public boolean contains(Coord c) {
        return c.x() < dims[0] && c.y() < dims[1] && c.z() < dims[2] && c.x() >= 0 && c.y() >= 0 && c.z() >= 0;
    }

    public int index(Coord c) {
        if (!contains(c)) {
            throw new IllegalArgumentException("coordinate " + c + " is outside the torus " + this);
        }
        return index(c.x(), c.y(), c.z());
    }

    public int index(int x, int y, int z) {
        return x + dims[0] * (y + dims[1] * z);
    }

    public Coord coord(int index) {
        return new Coord(x(index), y(index), z(index));
    }

    public int x(int index) {
        return index % dims[0];
    }

    public int y(int index) {
        return (index / dims[0]) % dims[1];
    }

    public int z(int index) {
        return index / (dims[0] * dims[1]);
    }

    /** Component of server {@code index} along {@code axis}. */
    public int component(int index, int axis) {
        return switch (axis) {
            case 0 -> x(index);
            case 1 -> y(index);
            default -> z(index);
        };
    }

    /** The server one hop away through {@code port}, with wraparound (itself in a dimension of size 1). */
    public int neighbour(int index, Port port) {
        int axis = port.axis();
        int d = dims[axis];
        int v = component(index, axis);
        int w = Math.floorMod(v + port.sign(), d);
        int stride = axis == 0 ? 1 : axis == 1 ? dims[0] : dims[0] * dims[1];
        return index + (w - v) * stride;
    }

    /** Offset of {@code index} from {@code origin} along {@code axis}, in [0, dim). */
    public int offset(int index, int origin, int axis) {
        return Math.floorMod(component(index, axis) - component(origin, axis), dims[axis]);
    }

    /** Hops between two servers on a failure-free torus. */
    public int hopDistance(int a, int b) {
        int h = 0;
        for (int axis = 0; axis < 3; axis++) {
            int o = offset(a, b, axis);
            h += Math.min(o, dims[axis] - o);
        }
        return h;
    }

    /** The port leading from {@code a} to its neighbour {@code b}, or {@code null} if they are not neighbours. */
    public Port portTo(int a, int b) {
        for (Port p : links) {
            if (neighbour(a, p) == b) {
                return p;
            }
        }
        return null;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TorusShape s && Arrays.equals(dims, s.dims);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(dims);
    }

    @Override
    public String toString() {
        return dims[0] + "x" + dims[1] + "x" + dims[2];
    }
}
