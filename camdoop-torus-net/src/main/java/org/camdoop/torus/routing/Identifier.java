package org.camdoop.torus.routing;

import java.util.Arrays;
import java.util.HexFormat;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.TorusShape;

/**
 * A 160-bit identifier (paper section 3). The most significant 48 bits are three 16-bit fields that name a coordinate
 * (each taken modulo the dimension, so any identifier names some coordinate of any shape); the remaining 112 bits
 * choose, deterministically, which nearby server takes over when that coordinate has no live server.
 */
public final class Identifier {

    /** Bytes in an identifier. */
    public static final int BYTES = 20;
    private static final int COORD_BYTES = 6;

    private final byte[] bits;
    // Derived once: the 112 low bits folded to 64, used by the remapping rule on every lookup.
    private final long tailHash;

    private Identifier(byte[] bits) {
        this.bits = bits;
        long h = 0x9E3779B97F4A7C15L;
        for (int i = COORD_BYTES; i < BYTES; i++) {
            h = Mix.mix64(h ^ (bits[i] & 0xFF));
        }
        this.tailHash = h;
    }

    /** Wraps 20 raw bytes (copied). */
    public static Identifier fromBytes(byte[] raw) {
        if (raw.length != BYTES) {
            throw new IllegalArgumentException("an identifier has " + BYTES + " bytes, got " + raw.length);
        }
        return new Identifier(raw.clone());
    }

    /**
     * The identifier whose top bits name {@code c} and whose low bits derive from {@code salt}: the paper's vertexId,
     * where the salt is a hash of the job id, so different jobs remap a failed server's vertices to different places.
     */
    public static Identifier of(Coord c, long salt) {
        byte[] b = new byte[BYTES];
        put16(b, 0, c.x());
        put16(b, 2, c.y());
        put16(b, 4, c.z());
        long s = salt;
        for (int i = COORD_BYTES; i < BYTES; i += 8) {
            s = Mix.mix64(s + 0x9E3779B97F4A7C15L);
            for (int j = 0; j < 8 && i + j < BYTES; j++) {
                b[i + j] = (byte) (s >>> (56 - 8 * j));
            }
        }
        return new Identifier(b);
    }

    private static void put16(byte[] b, int at, int v) {
        if (v < 0 || v > 0xFFFF) {
            throw new IllegalArgumentException("coordinate component " + v + " does not fit 16 bits");
        }
        b[at] = (byte) (v >>> 8);
        b[at + 1] = (byte) v;
    }

    private int get16(int at) {
        return ((bits[at] & 0xFF) << 8) | (bits[at + 1] & 0xFF);
    }

    /** The coordinate the top bits name on {@code shape}. */
    public Coord coordinate(TorusShape shape) {
        return new Coord(get16(0) % shape.dim(0), get16(2) % shape.dim(1), get16(4) % shape.dim(2));
    }

    /** A 64-bit digest of the bits below the coordinate: the input of the remapping rule. */
    long tailHash() {
        return tailHash;
    }

    public byte[] toBytes() {
        return bits.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Identifier i && Arrays.equals(bits, i.bits);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bits);
    }

    @Override
    public String toString() {
        return HexFormat.of().formatHex(bits);
    }
}
