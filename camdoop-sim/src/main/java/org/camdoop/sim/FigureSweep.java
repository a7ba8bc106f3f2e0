package org.camdoop.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The (S, R) points of the paper's simulated figures on a torus of {@code n} servers. */
public final class FigureSweep {

    /** One point to simulate. */
    public record Point(String figure, double ratioS, int reducers) {
    }

    private FigureSweep() {
    }

    /**
     * Figure 6: S = 0, 0.1, ..., 1 for R = 1 and R = N. Figure 7c: R = 1, 2, 4, ..., N at S = 1; Figure 7d: the same
     * at S = 0 (the paper's order: 7(a) and 7(c) are its S=1 panels, 7(b) and 7(d) its S=0 ones).
     */
    public static List<Point> points(String figure, int n) {
        List<Point> points = new ArrayList<>();
        switch (figure.trim().toLowerCase(Locale.ROOT)) {
            case "6" -> {
                for (int r : n == 1 ? new int[] {1} : new int[] {1, n}) {
                    for (int i = 0; i <= 10; i++) {
                        points.add(new Point("6", i / 10.0, r));
                    }
                }
            }
            case "7c" -> reducerSweep(points, "7c", 1, n);
            case "7d" -> reducerSweep(points, "7d", 0, n);
            case "all" -> {
                points.addAll(points("6", n));
                points.addAll(points("7c", n));
                points.addAll(points("7d", n));
            }
            default -> throw new IllegalArgumentException("unknown figure '" + figure + "': expected 6, 7c, 7d or all");
        }
        return points;
    }

    // Powers of two up to N, and N itself when it is not one.
    private static void reducerSweep(List<Point> points, String figure, double s, int n) {
        int r = 1;
        for (; r < n; r *= 2) {
            points.add(new Point(figure, s, r));
        }
        points.add(new Point(figure, s, n));
    }
}
