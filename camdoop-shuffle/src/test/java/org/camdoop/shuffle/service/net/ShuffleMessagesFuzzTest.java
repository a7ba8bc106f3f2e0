package org.camdoop.shuffle.service.net;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Service messages (START, START_ACK, ABORT, SPEC, JAR_PART) come from any server of the torus: any bytes decode or
 * are refused with an {@link IllegalArgumentException}, which the service logs and drops; nothing else escapes onto
 * the event loop, and no size in the bytes is trusted for an allocation (a 1 GiB claim must not be honoured).
 */
class ShuffleMessagesFuzzTest {

    @FuzzTest(maxDuration = "3s")
    void anyBytesDecodeOrAreRefused(byte[] bytes) {
        try {
            ShuffleMessages.decode(bytes);
        } catch (IllegalArgumentException refused) {
            // the only way out for bad bytes
        }
    }
}
