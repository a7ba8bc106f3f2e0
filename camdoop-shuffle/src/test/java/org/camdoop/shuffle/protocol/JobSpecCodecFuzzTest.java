package org.camdoop.shuffle.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * The job spec arrives from the torus (SPEC) and from tasks: any bytes either decode to a spec that encodes back to
 * the same bytes (the codec is strict: one encoding per spec) or are refused with {@link MalformedJobSpecException}.
 * Nothing else may escape: an unchecked exception would fail a daemon's service thread for every job.
 */
class JobSpecCodecFuzzTest {

    @FuzzTest(maxDuration = "3s")
    void anyBytesDecodeStrictlyOrAreRefused(byte[] bytes) {
        JobSpec spec;
        try {
            spec = JobSpecCodec.decode(bytes);
        } catch (MalformedJobSpecException refused) {
            return;
        }
        assertArrayEquals(bytes, JobSpecCodec.encode(spec), "a decoded spec encodes back to its bytes");
    }
}
