package org.camdoop.torus.routing;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.Port;
import org.camdoop.torus.topology.TorusShape;

/**
 * Shortest live paths for one failure view (the paper's link-state routing). For each destination it keeps the hop
 * count from every server over live servers and uncut links, computed once by breadth-first search from the
 * destination; the next hop is the first port (in {@link Port} order) whose neighbour is one hop closer, so every
 * server picks the same path and each hop makes progress.
 *
 * <p>Thread-safe: distance arrays are built on first use and never modified.
 */
public final class RoutingTable {

    private static final int UNREACHABLE = -1;

    private final FailureView view;
    private final TorusShape shape;
    private final ConcurrentHashMap<Integer, int[]> distancesTo = new ConcurrentHashMap<>();

    public RoutingTable(FailureView view) {
        this.view = view;
        this.shape = view.shape();
    }

    public FailureView view() {
        return view;
    }

    /**
     * The port on {@code from} towards {@code to}, or {@code null} when they are the same server.
     *
     * @throws UnreachableException if no live path exists, or either end is not live
     */
    public Port nextHop(int from, int to) {
        if (from == to) {
            return null;
        }
        int[] dist = distances(to);
        int d = dist[from];
        if (d == UNREACHABLE) {
            throw unreachable(from, to);
        }
        for (Port p : shape.links()) {
            int n = shape.neighbour(from, p);
            if (dist[n] == d - 1 && view.canCross(from, n)) {
                return p;
            }
        }
        throw new AssertionError("no neighbour closer to " + to + " from " + from);
    }

    /** Hops on the shortest live path. @throws UnreachableException as {@link #nextHop} */
    public int hops(int from, int to) {
        int d = distances(to)[from];
        if (d == UNREACHABLE) {
            throw unreachable(from, to);
        }
        return d;
    }

    /**
     * The servers on the path, both ends included (length 1 when {@code from == to}).
     *
     * @throws UnreachableException as {@link #nextHop}
     */
    public int[] path(int from, int to) {
        int[] p = new int[hops(from, to) + 1];
        p[0] = from;
        for (int i = 1; i < p.length; i++) {
            p[i] = shape.neighbour(p[i - 1], nextHop(p[i - 1], to));
        }
        return p;
    }

    private UnreachableException unreachable(int from, int to) {
        String why = !view.isLive(from) ? "source is not live" : !view.isLive(to) ? "destination is not live"
                : "the failures partition the torus";
        return new UnreachableException("no live path from " + shape.coord(from) + " to " + shape.coord(to) + " on "
                + shape + ": " + why);
    }

    private int[] distances(int to) {
        return distancesTo.computeIfAbsent(to, this::bfs);
    }

    private int[] bfs(int to) {
        int[] dist = new int[shape.size()];
        Arrays.fill(dist, UNREACHABLE);
        if (!view.isLive(to)) {
            return dist;
        }
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        dist[to] = 0;
        queue.add(to);
        while (!queue.isEmpty()) {
            int s = queue.poll();
            for (Port p : shape.links()) {
                int n = shape.neighbour(s, p);
                if (dist[n] == UNREACHABLE && view.canCross(n, s)) {
                    dist[n] = dist[s] + 1;
                    queue.add(n);
                }
            }
        }
        return dist;
    }
}
