package org.camdoop.bench.shuffle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.trees.TreeChoice;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The shuffle benchmark on a small torus, unshaped and tiny: correctness and accounting, never timing. */
class ShuffleBenchTest {

    private static final TorusShape SHAPE = TorusShape.parse("3x3x3");
    private static final Map<ShuffleMode, ShuffleBenchResult> AT_S0 = new EnumMap<>(ShuffleMode.class);
    private static final List<String> REQUIRED_KEYS = List.of("mode", "seconds", "lower_bound_seconds",
            "intermediate_bytes", "bytes_into_roots", "link_bytes_total", "output_records", "output_sha256",
            "reference_sha256", "ratio_to_lower_bound", "shape", "trees", "reducers", "ratio_s", "ratio_s_achieved",
            "mb_per_server", "link_mbps", "records_combined", "cpu_utilisation", "reference_records", "cpu_seconds",
            "map_output_mb_per_cpu_second", "first_byte_seconds");

    private static ShuffleBenchResult run(ShuffleMode mode, double s, int reducers, TreeChoice trees, double mbps)
            throws Exception {
        return new ShuffleBenchRunner(new ShuffleBenchOptions(SHAPE, s, reducers, mode, trees, 0.02, mbps, 7),
                Optional.empty(), false).run();
    }

    @BeforeAll
    static void runEveryModeAtSZero() throws Exception {
        for (ShuffleMode mode : ShuffleMode.values()) {
            AT_S0.put(mode, run(mode, 0, 1, TreeChoice.SIX, 0));
        }
    }

    @Test
    void everyModeReducesToTheReference() {
        for (ShuffleBenchResult r : AT_S0.values()) {
            assertEquals(r.referenceSha256(), r.outputSha256(), r.options().mode().label());
            assertEquals(r.referenceRecords(), r.outputRecords());
            assertTrue(r.correct());
            assertTrue(r.firstByteSeconds() > 0 && r.firstByteSeconds() <= r.seconds(),
                    "first bytes at " + r.firstByteSeconds() + " s of " + r.seconds());
        }
    }

    @Test
    void combiningOnPathCutsTheBytesIntoTheRootToTheOutput() {
        ShuffleBenchResult camdoop = AT_S0.get(ShuffleMode.CAMDOOP);
        ShuffleBenchResult noagg = AT_S0.get(ShuffleMode.NOAGG);
        assertEquals(camdoop.outputBytes(), camdoop.bytesIntoRoots(), "each key reaches the root once, summed");
        assertTrue(camdoop.bytesIntoRoots() * 10 < noagg.bytesIntoRoots(),
                camdoop.bytesIntoRoots() + " vs " + noagg.bytesIntoRoots());
        assertEquals(noagg.intermediateBytes(), noagg.bytesIntoRoots(), "without combining every record arrives");
        assertTrue(camdoop.recordsCombined() > 0);
        assertEquals(0, noagg.recordsCombined());
    }

    @Test
    void directSendsEachRemoteByteOverOneSwitchCrossing() {
        ShuffleBenchResult direct = AT_S0.get(ShuffleMode.DIRECT);
        long rootLocal = direct.intermediateBytes() / SHAPE.size(); // S=0: every server holds the same bytes
        assertEquals(direct.intermediateBytes() - rootLocal, direct.linkBytesTotal());
    }

    @ParameterizedTest
    @ValueSource(strings = {"camdoop", "noagg", "direct"})
    void shapedManyReducersAndSomeUniqueKeysStillMatch(String mode) throws Exception {
        ShuffleBenchResult r = run(ShuffleMode.parse(mode), 0.5, 4, TreeChoice.SHORTEST, 400);
        assertTrue(r.correct(), r.outputSha256() + " vs " + r.referenceSha256());
        assertTrue(Double.isFinite(r.lowerBound().seconds()) && r.lowerBound().seconds() > 0);
    }

    @Test
    void theJsonHasEveryRequiredKey() throws Exception {
        JsonNode json = new ObjectMapper().readTree(new ObjectMapper().writeValueAsString(
                AT_S0.get(ShuffleMode.CAMDOOP).toJson(new ObjectMapper())));
        for (String key : REQUIRED_KEYS) {
            assertTrue(json.has(key), "missing " + key);
        }
        assertEquals("camdoop", json.get("mode").asText());
        assertEquals(json.get("reference_sha256"), json.get("output_sha256"));
        assertTrue(json.get("lower_bound_seconds").isNull(), "unshaped links have no bound");
    }

    @Test
    void mapOutputPerCpuSecondIsTheIntermediateBytesOverTheCpuTimeAndIsPrinted() {
        ShuffleBenchResult r = AT_S0.get(ShuffleMode.CAMDOOP);
        assertTrue(r.cpuSeconds() > 0, "cpu seconds " + r.cpuSeconds());
        assertEquals(r.intermediateBytes() / 1e6 / r.cpuSeconds(), r.mapOutputMbPerCpuSecond(), 1e-9);
        String text = r.toText();
        assertTrue(text.contains(String.format(java.util.Locale.ROOT, "%.1f MB per CPU-second",
                r.mapOutputMbPerCpuSecond())), text);
        ShuffleBenchResult unknownCpu = new ShuffleBenchResult(r.options(), r.ratioSAchieved(), r.seconds(),
                r.firstByteSeconds(), r.lowerBound(), r.switchBound(), r.intermediateBytes(), r.outputBytes(), r.bytesIntoRoots(),
                r.linkBytesTotal(), r.recordsCombined(), r.outputRecords(), r.referenceRecords(), r.outputSha256(),
                r.referenceSha256(), Double.NaN, Double.NaN, r.cores(), r.generateSeconds(), r.startupSeconds());
        assertTrue(Double.isNaN(unknownCpu.mapOutputMbPerCpuSecond()));
        assertTrue(unknownCpu.toText().contains("map output / cpu-s   n/a"), unknownCpu.toText());
    }

    /**
     * Warm daemons and repeated shuffles: another job's shuffle first, then the measured job's three times on the
     * same torus. The result is one shuffle, the median by time: its output is the reference, its bytes into the root
     * are one shuffle's (not a sum), and its time is the middle one of the three measured.
     */
    @Test
    void aRunOnWarmDaemonsReportsTheMedianShuffleAlone() throws Exception {
        ShuffleBenchResult once = AT_S0.get(ShuffleMode.CAMDOOP);
        ShuffleBenchRunner runner = ShuffleBenchRunner.onWarmDaemons(once.options(), 3);
        ShuffleBenchResult r = runner.run();
        assertTrue(r.correct(), r.outputSha256() + " vs " + r.referenceSha256());
        assertEquals(once.outputRecords(), r.outputRecords());
        assertEquals(once.bytesIntoRoots(), r.bytesIntoRoots());
        assertEquals(once.recordsCombined(), r.recordsCombined());
        List<Double> times = new ArrayList<>(runner.measuredSeconds());
        assertEquals(3, times.size());
        times.sort(null);
        assertEquals(times.get(1), r.seconds());
    }

    @Test
    void repeatsAreCheckedAgainstAProfile() {
        ShuffleBenchOptions o = AT_S0.get(ShuffleMode.CAMDOOP).options();
        assertEquals("repeats must be at least 1, not 0", assertThrows(IllegalArgumentException.class,
                () -> new ShuffleBenchRunner(o, Optional.empty(), false, Optional.empty(), 0)).getMessage());
        assertEquals("a profile records one shuffle: repeat 1 with it, not 2", assertThrows(
                IllegalArgumentException.class, () -> new ShuffleBenchRunner(o, Optional.empty(), false,
                        Optional.of(Path.of("p.jfr")), 2)).getMessage());
    }
}
