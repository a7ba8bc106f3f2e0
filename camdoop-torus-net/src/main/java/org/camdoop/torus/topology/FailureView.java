package org.camdoop.torus.topology;

import java.util.BitSet;
import java.util.HashSet;
import java.util.Set;

/**
 * Which coordinates hold no live server (failed, or vacant because the cluster does not fill the shape) and which
 * links are cut. Immutable: a server's view changes by replacing the object, so every computation made from one view
 * is consistent, and two servers holding equal views compute identical routes and tree placements.
 */
public final class FailureView {

    private final TorusShape shape;
    private final BitSet failed;
    private final BitSet vacant;
    private final Set<Long> cutLinks;

    private FailureView(TorusShape shape, BitSet failed, BitSet vacant, Set<Long> cutLinks) {
        this.shape = shape;
        this.failed = failed;
        this.vacant = vacant;
        this.cutLinks = cutLinks;
    }

    /** Every server live, every link up. */
    public static FailureView none(TorusShape shape) {
        return new FailureView(shape, new BitSet(), new BitSet(), Set.of());
    }

    /** The first {@code servers} coordinates (by index) are occupied; the rest of the shape is vacant. */
    public static FailureView occupied(TorusShape shape, int servers) {
        if (servers < 1 || servers > shape.size()) {
            throw new IllegalArgumentException(servers + " servers do not fit the torus " + shape);
        }
        BitSet v = new BitSet();
        v.set(servers, shape.size());
        return new FailureView(shape, new BitSet(), v, Set.of());
    }

    public TorusShape shape() {
        return shape;
    }

    public boolean isLive(int index) {
        return !failed.get(index) && !vacant.get(index);
    }

    public boolean isVacant(int index) {
        return vacant.get(index);
    }

    public boolean isFailed(int index) {
        return failed.get(index);
    }

    /** Whether the link between neighbours {@code a} and {@code b} is cut (either direction: a cable carries both). */
    public boolean isCut(int a, int b) {
        return cutLinks.contains(linkKey(a, b));
    }

    /** Whether traffic can cross from {@code a} to its neighbour {@code b}: both live and the link not cut. */
    public boolean canCross(int a, int b) {
        return isLive(a) && isLive(b) && !isCut(a, b);
    }

    public int liveCount() {
        return shape.size() - unionDown().cardinality();
    }

    /** Failed and vacant coordinates, as indices. */
    public BitSet down() {
        return unionDown();
    }

    public int cutLinkCount() {
        return cutLinks.size();
    }

    /** This view plus one more failed server. */
    public FailureView withFailed(Coord c) {
        BitSet f = (BitSet) failed.clone();
        f.set(shape.index(c));
        return new FailureView(shape, f, vacant, cutLinks);
    }

    /** This view plus one vacant coordinate (no server was ever deployed there). */
    public FailureView withVacant(Coord c) {
        BitSet v = (BitSet) vacant.clone();
        v.set(shape.index(c));
        return new FailureView(shape, failed, v, cutLinks);
    }

    /**
     * This view plus one cut link between neighbours {@code a} and {@code b}.
     *
     * @throws IllegalArgumentException if they are not neighbours
     */
    public FailureView withCutLink(Coord a, Coord b) {
        int ia = shape.index(a);
        int ib = shape.index(b);
        if (shape.portTo(ia, ib) == null) {
            throw new IllegalArgumentException("servers " + a + " and " + b + " are not neighbours on " + shape);
        }
        Set<Long> l = new HashSet<>(cutLinks);
        l.add(linkKey(ia, ib));
        return new FailureView(shape, failed, vacant, Set.copyOf(l));
    }

    private BitSet unionDown() {
        BitSet d = (BitSet) failed.clone();
        d.or(vacant);
        return d;
    }

    private long linkKey(int a, int b) {
        return (long) Math.min(a, b) * shape.size() + Math.max(a, b);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FailureView v && shape.equals(v.shape) && failed.equals(v.failed) && vacant.equals(v.vacant)
                && cutLinks.equals(v.cutLinks);
    }

    @Override
    public int hashCode() {
        return shape.hashCode() * 31 + failed.hashCode() * 17 + vacant.hashCode() + cutLinks.hashCode();
    }

    @Override
    public String toString() {
        return "FailureView{" + shape + ", failed=" + failed + ", vacant=" + vacant + ", cutLinks=" + cutLinks.size() + "}";
    }
}
