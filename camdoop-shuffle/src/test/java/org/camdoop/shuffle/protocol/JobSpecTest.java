package org.camdoop.shuffle.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.GzipCodec;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobSpecTest {
    static final String JOB = "job_1700000000000_0007";

    @TempDir
    Path dir;

    private JobConf job() {
        JobConf job = new JobConf(); // with Hadoop's defaults, as in a task
        job.set(MRJobConfig.ID, JOB);
        job.setMapOutputKeyClass(Text.class);
        job.setMapOutputValueClass(IntWritable.class);
        job.set("mapred.output.key.comparator.class", "userjob.ReverseText"); // deprecated name
        job.set("mapred.combiner.class", "userjob.SumCombiner");
        job.setCompressMapOutput(true);
        job.setMapOutputCompressorClass(GzipCodec.class);
        job.setNumReduceTasks(3);
        job.set("camdoop.mode", "noagg");
        job.set("camdoop.daemon.user-code", "allow"); // a job must not set daemon policy
        job.set("mapreduce.map.memory.mb", "4096"); // not needed by the service
        return job;
    }

    @Test
    void carriesExactlyTheSubsetTheServiceNeeds() throws Exception {
        JobSpec spec = JobSpec.fromJobConf(job(), List.of());

        assertEquals(JOB, spec.jobId());
        Map<String, String> c = spec.conf();
        assertEquals("org.apache.hadoop.io.Text", c.get(MRJobConfig.MAP_OUTPUT_KEY_CLASS));
        assertEquals("userjob.ReverseText", c.get(MRJobConfig.KEY_COMPARATOR));
        assertEquals("userjob.SumCombiner", c.get("mapred.combiner.class"));
        assertEquals(GzipCodec.class.getName(), c.get(MRJobConfig.MAP_OUTPUT_COMPRESS_CODEC));
        assertEquals("3", c.get(MRJobConfig.NUM_REDUCES));
        assertEquals("noagg", c.get("camdoop.mode"));
        assertNotNull(c.get("io.serializations"));
        assertFalse(c.containsKey("camdoop.daemon.user-code"));
        assertFalse(c.containsKey("mapreduce.map.memory.mb"));
        for (String key : c.keySet()) {
            if (!JobSpec.SPEC_KEYS.contains(key) && !key.startsWith("camdoop.")) {
                throw new AssertionError("unexpected key " + key);
            }
        }
    }

    @Test
    void rebuiltJobConfHoldsExactlyTheSpecKeysAndNoDaemonDefaults() throws Exception {
        JobSpec spec = JobSpec.fromJobConf(job(), List.of());
        JobConf rebuilt = spec.toJobConf();

        Set<String> keys = new HashSet<>();
        rebuilt.forEach(e -> keys.add(e.getKey()));
        Set<String> expected = new HashSet<>(spec.conf().keySet());
        expected.add(MRJobConfig.ID);
        assertEquals(expected, keys);
        assertEquals(3, rebuilt.getNumReduceTasks());
        assertEquals(GzipCodec.class, rebuilt.getMapOutputCompressorClass(null));
        assertEquals(spec.conf().get("io.serializations"), rebuilt.get("io.serializations"));
        assertNotNull(new SerializationFactory(rebuilt).getSerializer(Text.class));
    }

    @Test
    void jobWithoutSerializationsStillSerializesWritablesThroughHadoopsCodeDefault() throws Exception {
        JobConf bare = new JobConf(false);
        bare.set(MRJobConfig.ID, JOB);
        bare.setMapOutputKeyClass(Text.class);
        JobSpec spec = JobSpec.fromJobConf(bare, List.of());

        JobConf rebuilt = spec.toJobConf();
        assertEquals(null, rebuilt.get("io.serializations"));
        assertNotNull(new SerializationFactory(rebuilt).getSerializer(Text.class));
        assertNotNull(new SerializationFactory(rebuilt).getDeserializer(IntWritable.class));
    }

    @Test
    void extraKeysListedByTheJobAreCarried() throws Exception {
        JobConf job = job();
        job.set(JobSpec.EXTRA_KEYS, "wordcount.case.sensitive, other.key");
        job.set("wordcount.case.sensitive", "false");
        JobSpec spec = JobSpec.fromJobConf(job, List.of());

        assertEquals("false", spec.conf().get("wordcount.case.sensitive"));
        assertEquals(spec, JobSpecCodec.decode(JobSpecCodec.encode(spec)));
    }

    @Test
    void digestsAreSha256OfTheJarsInClassPathOrder() throws Exception {
        Path a = Files.write(dir.resolve("a.jar"), "abc".getBytes(StandardCharsets.US_ASCII));
        Path b = Files.write(dir.resolve("b.jar"), new byte[0]);
        JobSpec spec = JobSpec.fromJobConf(job(), List.of(b, a));

        assertEquals(List.of(
                new JarDigest("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
                new JarDigest("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")), spec.jars());
    }

    @Test
    void encodingRoundTripsAndIsCanonical() throws Exception {
        Path a = Files.write(dir.resolve("a.jar"), new byte[] {1, 2, 3});
        JobSpec spec = JobSpec.fromJobConf(job(), List.of(a));
        byte[] bytes = JobSpecCodec.encode(spec);

        JobSpec decoded = JobSpecCodec.decode(bytes);
        assertEquals(spec, decoded);
        assertArrayEquals(bytes, JobSpecCodec.encode(decoded));
        assertEquals(JobSpecCodec.VERSION, bytes[0]);
    }

    @Test
    void everyTruncationIsRejected() throws Exception {
        Path a = Files.write(dir.resolve("a.jar"), new byte[] {1});
        byte[] bytes = JobSpecCodec.encode(JobSpec.fromJobConf(job(), List.of(a)));
        for (int n = 0; n < bytes.length; n++) {
            byte[] prefix = java.util.Arrays.copyOf(bytes, n);
            assertThrows(MalformedJobSpecException.class, () -> JobSpecCodec.decode(prefix), "prefix " + n);
        }
    }

    @Test
    void badBytesGetExactErrors() {
        assertEquals("malformed job spec: truncated at version (offset 0, need 1 bytes, have 0)",
                decodeError(new byte[0]));
        assertEquals("malformed job spec: unknown version 2 (this daemon reads 1)", decodeError(new byte[] {2}));

        byte[] good = JobSpecCodec.encode(new JobSpec(JOB, Map.of("camdoop.mode", "agg"), List.of()));
        byte[] trailing = java.util.Arrays.copyOf(good, good.length + 1);
        assertEquals("malformed job spec: 1 trailing bytes", decodeError(trailing));

        assertEquals("malformed job spec: key 'camdoop.a' not after 'camdoop.b'",
                decodeError(encode(JOB, List.of("camdoop.b", "x", "camdoop.a", "y"), 0)));
        assertEquals("malformed job spec: job spec may not carry key mapreduce.map.memory.mb",
                decodeError(encode(JOB, List.of("mapreduce.map.memory.mb", "1"), 0)));
        assertEquals("malformed job spec: job spec may not carry daemon setting camdoop.daemon.user-code",
                decodeError(encode(JOB, List.of("camdoop.daemon.user-code", "allow"), 0)));
        assertEquals("malformed job spec: not a job id: job_x", decodeError(encode("job_x", List.of(), 0)));
        assertEquals("malformed job spec: jar count -1 outside 0..1024", decodeError(encode(JOB, List.of(), -1)));

        byte[] badUtf8 = encode(JOB, List.of("camdoop.mode", "x"), 0);
        int valueAt = badUtf8.length - 4 - 1; // the one value byte sits before the jar count
        badUtf8[valueAt] = (byte) 0xC3; // a lead byte with no continuation
        assertEquals("malformed job spec: value of camdoop.mode is not valid UTF-8", decodeError(badUtf8));
    }

    @Test
    void aJarListedTwiceIsRejected() {
        JarDigest d = JarDigest.of(new byte[] {7});
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new JobSpec(JOB, Map.of(), List.of(d, d)));
        assertEquals("job spec of " + JOB + " lists a jar twice: [" + d + ", " + d + "]", e.getMessage());
    }

    private static String decodeError(byte[] bytes) {
        return assertThrows(MalformedJobSpecException.class, () -> JobSpecCodec.decode(bytes)).getMessage();
    }

    /** Raw encoding without JobSpec's checks, to build invalid inputs. */
    private static byte[] encode(String jobId, List<String> keyValues, int jarCount) {
        ByteBuffer b = ByteBuffer.allocate(4096);
        b.put((byte) 1);
        putString(b, jobId);
        b.putInt(keyValues.size() / 2);
        for (String s : keyValues) {
            putString(b, s);
        }
        b.putInt(jarCount);
        return java.util.Arrays.copyOf(b.array(), b.position());
    }

    private static void putString(ByteBuffer b, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        b.putInt(bytes.length);
        b.put(bytes);
    }

    /** Deprecated names of keys a daemon loads classes (or reads settings) from, with what a JobConf reads them as. */
    private static final Map<String, String> DEPRECATED_CLASS_KEYS = Map.of(
            "mapred.output.key.comparator.class", MRJobConfig.KEY_COMPARATOR,
            "mapred.mapoutput.key.class", MRJobConfig.MAP_OUTPUT_KEY_CLASS,
            "mapred.mapoutput.value.class", MRJobConfig.MAP_OUTPUT_VALUE_CLASS,
            "mapred.output.key.class", MRJobConfig.OUTPUT_KEY_CLASS,
            "mapred.output.value.class", MRJobConfig.OUTPUT_VALUE_CLASS,
            "mapreduce.combine.class", MRJobConfig.COMBINE_CLASS_ATTR,
            "mapred.compress.map.output", MRJobConfig.MAP_OUTPUT_COMPRESS,
            "mapred.map.output.compression.codec", MRJobConfig.MAP_OUTPUT_COMPRESS_CODEC,
            "mapred.reduce.tasks", MRJobConfig.NUM_REDUCES);

    @Test
    void aDeprecatedKeyNameIsRefusedWhereverTheSpecComesFrom() throws Exception {
        for (Map.Entry<String, String> d : DEPRECATED_CLASS_KEYS.entrySet()) {
            String expected = "job spec may not carry " + d.getKey() + ", a key name Hadoop deprecates; it is read as "
                    + d.getValue();
            // As a task of the job sends it to its daemon, bypassing JobSpec.fromJobConf.
            assertEquals("malformed job spec: " + expected, decodeError(encode(JOB, List.of(
                    JobSpec.EXTRA_KEYS, d.getKey(), d.getKey(), "userjob.Evil"), 0)));
            // As fromJobConf builds it for a job that lists the old name.
            JobConf job = job();
            job.set(JobSpec.EXTRA_KEYS, d.getKey());
            job.set(d.getKey(), "userjob.Evil");
            assertEquals(expected, assertThrows(IllegalArgumentException.class,
                    () -> JobSpec.fromJobConf(job, List.of())).getMessage());
        }
    }

    @Test
    void noKeyASpecAlwaysCarriesIsDeprecatedAndTheOldApiCombinerKeyIsNot() {
        for (String key : JobSpec.SPEC_KEYS) {
            assertFalse(Configuration.isDeprecated(key), key);
        }
        JobSpec spec = new JobSpec(JOB, Map.of(JobSpec.OLD_API_COMBINER, "userjob.SumCombiner"), List.of());
        assertEquals("userjob.SumCombiner", spec.toJobConf().get(JobSpec.OLD_API_COMBINER));
    }

    @Test
    void aSpecDeclaresAtMostOneHundredThousandReducesHoweverSpelled() {
        assertEquals(100_000, new JobSpec(JOB, Map.of(MRJobConfig.NUM_REDUCES, "100000"), List.of()).toJobConf()
                .getNumReduceTasks());
        String tooMany = "job spec of " + JOB + " declares 100001 reduces (mapreduce.job.reduces); daemons serve jobs"
                + " of 0 to 100000 reduces";
        assertEquals(tooMany, reducesError(Map.of(MRJobConfig.NUM_REDUCES, "100001")));
        assertEquals(tooMany, reducesError(Map.of(MRJobConfig.NUM_REDUCES, " 0x186A1 ")));
        assertEquals(tooMany, reducesError(Map.of(MRJobConfig.NUM_REDUCES, "${camdoop.r}", "camdoop.r", "100001")));
        assertEquals("job spec of " + JOB + " declares -1 reduces (mapreduce.job.reduces); daemons serve jobs of 0 to"
                + " 100000 reduces", reducesError(Map.of(MRJobConfig.NUM_REDUCES, "-1")));
        assertEquals("job spec of " + JOB + " has mapreduce.job.reduces many, not a number (For input string:"
                + " \"many\")", reducesError(Map.of(MRJobConfig.NUM_REDUCES, "many")));
        Map<String, String> deep = new TreeMap<>(Map.of(MRJobConfig.NUM_REDUCES, "${camdoop.r0}", "camdoop.r21", "1"));
        for (int i = 0; i <= 20; i++) {
            deep.put("camdoop.r" + i, "${camdoop.r" + (i + 1) + "}");
        }
        assertEquals("job spec of " + JOB + " has mapreduce.job.reduces ${camdoop.r0}, not a number (Variable"
                + " substitution depth too large: 20 ${camdoop.r0})", reducesError(deep));
        assertEquals("malformed job spec: job spec of " + JOB + " declares 89000000 reduces (mapreduce.job.reduces);"
                + " daemons serve jobs of 0 to 100000 reduces",
                decodeError(encode(JOB, List.of(MRJobConfig.NUM_REDUCES, "89000000"), 0)));
    }

    @Test
    void aMapOutputClaimsAtMostOneHundredThousandPartitions() {
        String attempt = "attempt_1700000000000_0007_m_000000_0";
        assertEquals(100_000, new MapOutput(JOB, attempt, 100_000).partitions());
        assertEquals("partition count 100001 for " + attempt + " is above the 100000 reduces daemons serve",
                assertThrows(IllegalArgumentException.class, () -> new MapOutput(JOB, attempt, 100_001))
                        .getMessage());
    }

    private static String reducesError(Map<String, String> conf) {
        return assertThrows(IllegalArgumentException.class, () -> new JobSpec(JOB, conf, List.of())).getMessage();
    }

    @Test
    void specEqualityIgnoresMapOrder() {
        Map<String, String> m = new TreeMap<>(Map.of("camdoop.a", "1", "camdoop.b", "2"));
        assertEquals(new JobSpec(JOB, m, List.of()), new JobSpec(JOB, Map.copyOf(m), List.of()));
    }
}
