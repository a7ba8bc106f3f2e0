package org.camdoop.torus.routing;

import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.TorusShape;

/**
 * Maps identifiers to the live servers responsible for them (paper section 3).
 *
 * <p>An identifier belongs to the server at the coordinate its top bits name. If that coordinate has no live server,
 * it belongs to the live server closest to it (torus hops), and among equally close ones to the one with the highest
 * rendezvous weight {@code mix(tail bits, server)}. The rule depends only on the identifier and the failure view, so
 * every server holding the same view gets the same answer; cascading failures need no special case because the
 * answer is always recomputed from the original coordinate; and a server's failure moves only the identifiers it
 * owned (rendezvous hashing), spreading a failed server's vertices over its neighbours rather than piling them on one.
 */
public final class KeySpace {

    private final FailureView view;
    private final TorusShape shape;

    public KeySpace(FailureView view) {
        this.view = view;
        this.shape = view.shape();
    }

    public FailureView view() {
        return view;
    }

    /**
     * The live server (index) that owns {@code id}.
     *
     * @throws IllegalStateException if no server is live
     */
    public int owner(Identifier id) {
        Coord c = id.coordinate(shape);
        int home = shape.index(c);
        if (view.isLive(home)) {
            return home;
        }
        int best = -1;
        int bestDistance = Integer.MAX_VALUE;
        long bestWeight = 0;
        for (int s = 0; s < shape.size(); s++) {
            if (!view.isLive(s)) {
                continue;
            }
            int d = shape.hopDistance(home, s);
            if (d > bestDistance) {
                continue;
            }
            long w = Mix.mix64(id.tailHash() ^ Mix.mix64(s + 1L));
            if (d < bestDistance || Long.compareUnsigned(w, bestWeight) > 0) {
                best = s;
                bestDistance = d;
                bestWeight = w;
            }
        }
        if (best < 0) {
            throw new IllegalStateException("no live server on " + shape + ": every coordinate failed or vacant");
        }
        return best;
    }
}
