package org.camdoop.bench.paper;

import java.util.Locale;
import org.camdoop.shuffle.protocol.ShuffleMode;

/**
 * One run of the sweep: a mode on a workload. Points that several figures share (S=0, R=1 is in Figures 5(a) and
 * 7(b)) are one point and run once.
 *
 * @param ratioS      S in [0, 1] (0 means 1/N, as in the paper)
 * @param reducers    R
 * @param mbPerServer map output per server in MB
 * @param mode        camdoop, noagg or direct (the paper's Camdoop, Camdoop (no agg.) and TCP Camdoop)
 */
public record PaperPoint(double ratioS, int reducers, double mbPerServer, ShuffleMode mode) {

    /** The same workload in another mode. */
    public PaperPoint withMode(ShuffleMode other) {
        return new PaperPoint(ratioS, reducers, mbPerServer, other);
    }

    /** For progress lines and errors: {@code camdoop S=0.25 R=1 0.25 MB/server}. */
    public String describe() {
        return String.format(Locale.ROOT, "%s S=%s R=%d %s MB/server", mode.label(), trim(ratioS), reducers,
                trim(mbPerServer));
    }

    /** A number without a trailing {@code .0}. */
    static String trim(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
