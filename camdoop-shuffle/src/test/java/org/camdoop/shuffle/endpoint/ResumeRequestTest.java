package org.camdoop.shuffle.endpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.camdoop.shuffle.protocol.LocalWire;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** A RESUME_SHUFFLE names another attempt of each lost map and nothing else, or is refused saying why. */
class ResumeRequestTest {

    private static final String JOB = "job_1700000000000_0044";
    private static final String M2 = "attempt_1700000000000_0044_m_000002_0";
    private static final String M5 = "attempt_1700000000000_0044_m_000005_0";

    private static ResumeRequest read(String... pairs) throws IOException {
        byte[] body = LocalWire.body(o -> {
            o.writeInt(pairs.length / 2);
            for (String p : pairs) {
                o.writeUTF(p);
            }
            LocalWire.writeBytes(o, new byte[] {7, 8});
        });
        return ResumeRequest.read(new LocalWire.Frame(LocalWire.RESUME_SHUFFLE, body).in(), JOB, List.of(M2, M5));
    }

    @Test
    void newAttemptsOfTheLostMapsAreTaken() throws IOException {
        ResumeRequest r = read(M5, "attempt_1700000000000_0044_m_000005_3", M2,
                "attempt_1700000000000_0044_m_000002_1");
        assertEquals(new TreeMap<>(Map.of(M2, "attempt_1700000000000_0044_m_000002_1", M5,
                "attempt_1700000000000_0044_m_000005_3")), r.replacements());
        assertArrayEquals(new byte[] {7, 8}, r.proof());
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "attempt_1700000000000_0044_m_000002_0;attempt_1700000000000_0044_m_000003_1;"
                + "it replaces attempt_1700000000000_0044_m_000002_0 by attempt_1700000000000_0044_m_000003_1, which"
                + " is not another attempt of the same map",
        "attempt_1700000000000_0044_m_000002_0;attempt_1700000000000_0044_m_000002_0;"
                + "it replaces attempt_1700000000000_0044_m_000002_0 by attempt_1700000000000_0044_m_000002_0, which"
                + " is not another attempt of the same map",
        "attempt_1700000000000_0044_m_000007_0;attempt_1700000000000_0044_m_000007_1;"
                + "it replaces attempt_1700000000000_0044_m_000007_0, whose output was not lost"
                + " [attempt_1700000000000_0044_m_000002_0, attempt_1700000000000_0044_m_000005_0]",
        "attempt_1700000000000_0044_m_000002_0;attempt_1700000000000_0099_m_000002_1;"
                + "attempt attempt_1700000000000_0099_m_000002_1 is not of job job_1700000000000_0044",
        "attempt_1700000000000_0044_m_000002_0;attempt_1700000000000_0044_r_000002_1;"
                + "attempt attempt_1700000000000_0044_r_000002_1 is not a map attempt",
        "attempt_1700000000000_0044_m_000002_0;../../etc/passwd;not a task attempt id: ../../etc/passwd"})
    void aReplacementThatIsNotAnotherAttemptOfTheLostMapIsRefused(String lost, String replacement, String why) {
        assertEquals(why, assertThrows(IllegalArgumentException.class,
                () -> read(lost, replacement, M5, "attempt_1700000000000_0044_m_000005_1")).getMessage());
    }

    @Test
    void aRequestNamingFewerOrTwiceTheSameMapIsRefused() {
        assertEquals("it names 1 new map attempts for the 2 whose outputs were lost [" + M2 + ", " + M5 + "]",
                assertThrows(IllegalArgumentException.class,
                        () -> read(M2, "attempt_1700000000000_0044_m_000002_1")).getMessage());
        assertEquals("it replaces " + M2 + " twice", assertThrows(IllegalArgumentException.class,
                () -> read(M2, "attempt_1700000000000_0044_m_000002_1", M2, "attempt_1700000000000_0044_m_000002_2"))
                .getMessage());
    }
}
