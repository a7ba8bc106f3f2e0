package org.camdoop.shuffle.protocol;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * An END payload comes from a child vertex over the torus: any bytes decode or are refused with an
 * {@link IllegalArgumentException} (which fails that one shuffle); nothing else escapes.
 */
class EndOfStreamFuzzTest {

    @FuzzTest(maxDuration = "3s")
    void anyBytesDecodeOrAreRefused(byte[] bytes) {
        try {
            EndOfStream.decode(bytes);
        } catch (IllegalArgumentException refused) {
            // the only way out for bad bytes
        }
    }
}
