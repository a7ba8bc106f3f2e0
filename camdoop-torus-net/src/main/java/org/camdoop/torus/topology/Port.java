package org.camdoop.torus.topology;

/**
 * One of the six links of a torus server, named by the axis and direction it leads in.
 * In a dimension of size 2 both directions lead to the same neighbour over one link (we use {@code PLUS_*} for it);
 * in a dimension of size 1 neither exists.
 */
public enum Port {
    PLUS_X(0, +1), MINUS_X(0, -1), PLUS_Y(1, +1), MINUS_Y(1, -1), PLUS_Z(2, +1), MINUS_Z(2, -1);

    private static final Port[] VALUES = values();

    private final int axis;
    private final int sign;

    Port(int axis, int sign) {
        this.axis = axis;
        this.sign = sign;
    }

    /** 0 = x, 1 = y, 2 = z. */
    public int axis() {
        return axis;
    }

    /** +1 or -1. */
    public int sign() {
        return sign;
    }

    /** The port on the neighbour that leads back here. */
    public Port opposite() {
        return VALUES[ordinal() ^ 1];
    }

    /** The port along {@code axis} in direction {@code sign} (+1 or -1). */
    public static Port of(int axis, int sign) {
        return VALUES[axis * 2 + (sign > 0 ? 0 : 1)];
    }

    /** {@code +x}, {@code -y}, ...: the short form used in logs and tool output. */
    public String label() {
        return (sign > 0 ? "+" : "-") + "xyz".charAt(axis);
    }
}
