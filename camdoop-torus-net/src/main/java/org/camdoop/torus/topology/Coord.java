package org.camdoop.torus.topology;

/**
 * A server coordinate (x, y, z) on the torus. Parsed from and printed as {@code x,y,z}, the form operators type.
 */
public record Coord(int x, int y, int z) {

    /** The coordinate along one axis: 0 = x, 1 = y, 2 = z. */
    public int get(int axis) {
        return switch (axis) {
            case 0 -> x;
            case 1 -> y;
            case 2 -> z;
            default -> throw new IllegalArgumentException("axis must be 0, 1 or 2, not " + axis);
        };
    }

    /**
     * Parses {@code x,y,z} (three non-negative integers separated by commas).
     *
     * @throws IllegalArgumentException with a one-line message naming the bad text
     */
    public static Coord parse(String text) {
        String[] parts = text.trim().split(",", -1);
        if (parts.length != 3) {
            throw new IllegalArgumentException("malformed coordinate '" + text + "': expected x,y,z");
        }
        int[] v = new int[3];
        for (int i = 0; i < 3; i++) {
            try {
                v[i] = Integer.parseInt(parts[i].trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("malformed coordinate '" + text + "': '" + parts[i].trim()
                        + "' is not an integer");
            }
            if (v[i] < 0) {
                throw new IllegalArgumentException("malformed coordinate '" + text + "': negative component");
            }
        }
        return new Coord(v[0], v[1], v[2]);
    }

    @Override
    public String toString() {
        return x + "," + y + "," + z;
    }
}
