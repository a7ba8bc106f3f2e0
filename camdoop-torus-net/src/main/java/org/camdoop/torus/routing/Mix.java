package org.camdoop.torus.routing;

/** The 64-bit finaliser of SplitMix64: a fixed, well-mixed hash so every server computes the same numbers. */
final class Mix {

    private Mix() {
    }

    static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
