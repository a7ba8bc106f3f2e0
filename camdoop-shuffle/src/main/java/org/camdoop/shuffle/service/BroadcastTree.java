package org.camdoop.shuffle.service;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.Port;
import org.camdoop.torus.topology.TorusShape;

/**
 * The spanning tree a job spec is broadcast along: a breadth-first (shortest-path) tree over the live servers and
 * working links of one failure view, rooted at the origin, with neighbours tried in {@link TorusShape#links()} order
 * so every daemon with the same view computes the same tree. Each tree edge is one physical link, so a broadcast puts
 * every byte on each link it uses once (the logical shortest-path tree of {@code org.camdoop.torus.trees} would
 * route around failed servers over several hops instead). Immutable.
 */
final class BroadcastTree {

    private final FailureView view;
    private final int origin;
    /** Parent of each server in the tree; -1 for the origin and for servers the tree does not reach. */
    private final int[] parent;

    BroadcastTree(FailureView view, int origin) {
        this.view = view;
        this.origin = origin;
        TorusShape shape = view.shape();
        this.parent = new int[shape.size()];
        Arrays.fill(parent, -1);
        if (!view.isLive(origin)) {
            return;
        }
        boolean[] seen = new boolean[shape.size()];
        seen[origin] = true;
        ArrayDeque<Integer> queue = new ArrayDeque<>(List.of(origin));
        while (!queue.isEmpty()) {
            int s = queue.poll();
            for (Port p : shape.links()) {
                int n = shape.neighbour(s, p);
                if (!seen[n] && view.canCross(s, n)) {
                    seen[n] = true;
                    parent[n] = s;
                    queue.add(n);
                }
            }
        }
    }

    FailureView view() {
        return view;
    }

    int origin() {
        return origin;
    }

    /** The servers {@code server} forwards to, in ascending order. */
    List<Integer> children(int server) {
        List<Integer> out = new ArrayList<>();
        for (int s = 0; s < parent.length; s++) {
            if (parent[s] == server) {
                out.add(s);
            }
        }
        return out;
    }
}
