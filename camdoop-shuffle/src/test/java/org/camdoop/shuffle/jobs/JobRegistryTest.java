package org.camdoop.shuffle.jobs;

import org.camdoop.shuffle.protocol.Refusal;
import org.camdoop.shuffle.protocol.JarDigest;
import org.camdoop.shuffle.protocol.JobSpec;
import org.camdoop.shuffle.protocol.JobTokenProof;
import org.camdoop.shuffle.protocol.MapOutput;
import org.camdoop.shuffle.protocol.MapOutputRegistration;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.security.token.JobTokenIdentifier;
import org.apache.hadoop.security.token.Token;
import org.camdoop.shuffle.aggregation.Advance;
import org.camdoop.shuffle.aggregation.ByteArrayRun;
import org.camdoop.shuffle.aggregation.CombiningRun;
import org.camdoop.shuffle.aggregation.JobAggregationSpec;
import org.camdoop.shuffle.aggregation.MapOutputFiles;
import org.camdoop.shuffle.aggregation.SortedRun;
import org.camdoop.shuffle.testing.NodeManagerDirs;
import org.camdoop.shuffle.testing.WordCounts;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobRegistryTest {
    static final String JOB = "job_1700000000000_0020";
    static final String MAP_0 = "attempt_1700000000000_0020_m_000000_0";
    static final String MAP_0_RETRY = "attempt_1700000000000_0020_m_000000_1";

    @TempDir
    static Path work;
    static Path userJar;

    @TempDir
    Path cacheDir;
    @TempDir
    Path localDir;
    final MutableClock clock = new MutableClock();
    JarCache jars;
    JobTokens tokens;
    Token<JobTokenIdentifier> token;

    @BeforeAll
    static void compileUserJar() throws Exception {
        userJar = UserJars.build(work);
    }

    @BeforeEach
    void setUp() throws Exception {
        jars = JarCache.open(cacheDir, 1 << 20);
        tokens = new JobTokens(JobsConfig.from(new Configuration(false)));
        token = JobTokensTest.jobTokenFromTaskCredentials(JOB);
        tokens.add(JOB, token.getPassword(), NodeManagerDirs.USER);
    }

    private JobRegistry registry(String userCode) {
        Configuration conf = new Configuration(false);
        conf.set(JobsConfig.USER_CODE, userCode);
        conf.setLong(JobsConfig.JOB_IDLE_TIMEOUT_MS, 60_000);
        conf.set(JobsConfig.LOCAL_DIRS, localDir.toString());
        return new JobRegistry(JobRegistryContext.of(JobsConfig.from(conf), jars, tokens,
                MapOutputLocator.standalone(conf), clock));
    }

    /** The spec a map task of a word-count-like job sends: Text/IntWritable, the jarred combiner, 2 reduces. */
    private JobSpec spec(String combiner, String comparator) throws IOException {
        JobConf job = new JobConf(false);
        job.set(MRJobConfig.ID, JOB);
        job.setMapOutputKeyClass(Text.class);
        job.setMapOutputValueClass(IntWritable.class);
        job.set("mapred.combiner.class", combiner);
        if (comparator != null) {
            job.set(MRJobConfig.KEY_COMPARATOR, comparator);
        }
        job.setNumReduceTasks(2);
        return JobSpec.fromJobConf(job, List.of(userJar));
    }

    private RegisterOutcome registerFromTask(JobRegistry registry, JobSpec spec) {
        return registry.registerFromTask(spec, JobTokenProof.forSpec(token.getPassword(), spec));
    }

    private RegisteredJob registered(JobRegistry registry, JobSpec spec) throws IOException {
        jars.putFile(userJar);
        RegisterOutcome outcome = registerFromTask(registry, spec);
        assertEquals(RegisterOutcome.Kind.REGISTERED, outcome.kind(), outcome.message());
        return outcome.job().orElseThrow();
    }

    private static MapOutputRegistration signed(Token<JobTokenIdentifier> token, String attempt, int partitions) {
        return MapOutputRegistration.signed(new MapOutput(JOB, attempt, partitions), token);
    }

    /** A real two-partition map output of {@code attempt} where its NodeManager would leave it. */
    private Path writeOutput(String attempt) throws IOException {
        return NodeManagerDirs.writeWordCounts(WordCounts.job(2), localDir, JOB, attempt, Map.of("a", 1, "b", 2));
    }

    @Test
    void aRegisteredJobCombinesRealRecordsWithTheJarredCombiner() throws Exception {
        JobRegistry registry = registry("allow");
        RegisteredJob job = registered(registry, spec(UserJars.SUM_COMBINER, null));

        JobAggregationSpec agg = job.aggregation();
        assertEquals(UserCodeDecision.Kind.COMBINE, job.decision().kind());
        assertEquals(UserJars.SUM_COMBINER, agg.combiner().orElseThrow().combinerClass().getName());
        assertSame(job.classLoader(), agg.combiner().orElseThrow().combinerClass().getClassLoader());
        byte[] run = layout("apple", 1, "apple", 2, "apple", 4, "pear", 5);
        assertEquals(List.of("apple=7", "pear=5"), drain(new CombiningRun(new ByteArrayRun(run), agg)));
    }

    @Test
    void theJarredComparatorSortsThroughTheJobsLoader() throws Exception {
        RegisteredJob job = registered(registry("allow"), spec(UserJars.SUM_COMBINER, UserJars.REVERSE_COMPARATOR));

        JobAggregationSpec agg = job.aggregation();
        assertSame(job.classLoader(), agg.sortComparator().getClass().getClassLoader());
        byte[] a = bytes(new Text("a"));
        byte[] b = bytes(new Text("b"));
        assertTrue(agg.sortComparator().compare(a, 0, a.length, b, 0, b.length) > 0, "reverse order");
    }

    @Test
    void missingJarsAreNamedThenTheJobRegistersOnceTheyArrive() throws Exception {
        JobRegistry registry = registry("allow");
        JobSpec spec = spec(UserJars.SUM_COMBINER, null);

        RegisterOutcome first = registry.registerFromPeer(spec);
        assertEquals(RegisterOutcome.Kind.MISSING_JARS, first.kind());
        assertEquals(spec.jars(), first.missingJars());
        assertEquals(Optional.empty(), registry.lookup(JOB));

        jars.put(spec.jars().get(0), Files.readAllBytes(userJar));
        assertEquals(RegisterOutcome.Kind.REGISTERED, registry.registerFromPeer(spec).kind());
    }

    @Test
    void specRegistrationFromATaskNeedsTheJobTokenProof() throws Exception {
        JobRegistry registry = registry("allow");
        jars.putFile(userJar);
        JobSpec spec = spec(UserJars.SUM_COMBINER, null);
        Token<JobTokenIdentifier> stranger = JobTokensTest.jobTokenFromTaskCredentials(JOB);

        assertEquals(RegisterOutcome.refused(Refusal.BAD_PROOF,
                "job spec registration for " + JOB + " refused: bad job token proof"),
                registry.registerFromTask(spec, JobTokenProof.forSpec(stranger.getPassword(), spec)));
        tokens.remove(JOB);
        assertEquals(RegisterOutcome.refused(Refusal.UNKNOWN_JOB, "unknown job " + JOB + ": no job token registered"),
                registerFromTask(registry, spec));
        assertEquals(List.of(), registry.jobIds());
    }

    @Test
    void registeringTheSameSpecAgainIsIdempotentAndADifferentSpecIsRefused() throws Exception {
        JobRegistry registry = registry("allow");
        JobSpec spec = spec(UserJars.SUM_COMBINER, null);
        RegisteredJob job = registered(registry, spec);

        RegisterOutcome again = registerFromTask(registry, spec);
        assertEquals(RegisterOutcome.Kind.ALREADY_REGISTERED, again.kind());
        assertSame(job, again.job().orElseThrow());
        JobSpec other = spec(UserJars.SUM_COMBINER, UserJars.REVERSE_COMPARATOR);
        assertEquals(RegisterOutcome.refused("job " + JOB + " is already registered with a different spec"),
                registerFromTask(registry, other));
    }

    @Test
    void denyMergesOnlyWithoutEverInitializingTheCombiner() throws Exception {
        JobSpec boom = spec(UserJars.BOOM_COMBINER, null);
        jars.putFile(userJar);

        // Control: where the policy allows it, loading the combiner runs its initializer, which throws.
        JobRegistry allowing = registry("allow");
        RegisterOutcome control = registerFromTask(allowing, boom);
        assertEquals(RegisterOutcome.Kind.REFUSED, control.kind());
        assertTrue(control.message().contains("user code ran"), control.message());

        RegisterOutcome denied = registerFromTask(registry("deny"), boom);
        assertEquals(RegisterOutcome.Kind.REGISTERED, denied.kind(), denied.message());
        RegisteredJob job = denied.job().orElseThrow();
        assertEquals(new UserCodeDecision(UserCodeDecision.Kind.MERGE_ONLY,
                "combiner " + UserJars.BOOM_COMBINER + " is user code and camdoop.daemon.user-code=deny"),
                job.decision());
        assertEquals(Optional.empty(), job.aggregation().combiner());
    }

    @Test
    void denyRefusesAJobWhoseComparatorIsUserCode() throws Exception {
        jars.putFile(userJar);
        RegisterOutcome outcome = registerFromTask(registry("deny"),
                spec(UserJars.SUM_COMBINER, UserJars.REVERSE_COMPARATOR));

        assertEquals(RegisterOutcome.refused("job " + JOB + " refused: its sort comparator "
                + UserJars.REVERSE_COMPARATOR
                + " is user code and camdoop.daemon.user-code=deny; run the job on the stock shuffle"), outcome);
    }

    @Test
    void mapOutputsAreRecordedPerAttemptWithExactRefusals() throws Exception {
        JobRegistry registry = registry("allow");
        registered(registry, spec(UserJars.SUM_COMBINER, null));
        MapOutputRegistration first = signed(token, MAP_0, 2);
        Path dir0 = writeOutput(MAP_0);
        Path dir0retry = writeOutput(MAP_0_RETRY);

        assertEquals(MapOutputOutcome.Kind.ACCEPTED, registry.registerMapOutput(first).kind());
        assertEquals(MapOutputOutcome.Kind.DUPLICATE, registry.registerMapOutput(first).kind());
        assertEquals(MapOutputOutcome.Kind.ACCEPTED, registry.registerMapOutput(signed(token, MAP_0_RETRY, 2)).kind());
        // The files the daemon derived itself, with the owner the default container executor gives them.
        assertEquals(List.of(MapOutputFiles.ownedBy(NodeManagerDirs.USER, MAP_0, dir0.resolve("file.out"),
                        dir0.resolve("file.out.index"), 2),
                MapOutputFiles.ownedBy(NodeManagerDirs.USER, MAP_0_RETRY, dir0retry.resolve("file.out"),
                        dir0retry.resolve("file.out.index"), 2)), registry.mapOutputs(JOB));
        assertEquals(MapOutputOutcome.refused(Refusal.REFUSED, "map output registration for "
                + "attempt_1700000000000_0020_m_000002_0 refused: no local dir holds usercache/" + NodeManagerDirs.USER + "/appcache/"
                + "application_1700000000000_0020/output/attempt_1700000000000_0020_m_000002_0/file.out.index"),
                registry.registerMapOutput(signed(token, "attempt_1700000000000_0020_m_000002_0", 2)));
        assertEquals(MapOutputOutcome.refused(Refusal.BAD_PROOF, "map output registration for " + MAP_0
                + " refused: bad job token proof"),
                registry.registerMapOutput(signed(JobTokensTest.jobTokenFromTaskCredentials(JOB), MAP_0, 2)));
        assertEquals(MapOutputOutcome.refused(Refusal.REFUSED, "map output registration for "
                + "attempt_1700000000000_0020_m_000001_0 refused: it has 3 partitions, job " + JOB + " has 2 reduces"),
                registry.registerMapOutput(signed(token, "attempt_1700000000000_0020_m_000001_0", 3)));
        assertEquals(2, registry.mapOutputs(JOB).size());
    }

    @Test
    void mapOutputsOfAnUnknownOrUnregisteredJobAreRefused() throws Exception {
        JobRegistry registry = registry("allow");
        assertEquals(MapOutputOutcome.refused(Refusal.REFUSED, "map output registration for " + MAP_0
                + " refused: job " + JOB + " is not registered with this daemon"),
                registry.registerMapOutput(signed(token, MAP_0, 2)));
        tokens.remove(JOB);
        assertEquals(MapOutputOutcome.refused(Refusal.UNKNOWN_JOB, "unknown job " + JOB
                + ": no job token registered"), registry.registerMapOutput(signed(token, MAP_0, 2)));
    }

    @Test
    void unregisterReleasesEverythingButHadoopsFiles() throws Exception {
        jars = JarCache.open(cacheDir, Files.size(userJar)); // room for this one jar only
        JobRegistry registry = registry("allow");
        JobSpec spec = spec(UserJars.SUM_COMBINER, null);
        RegisteredJob job = registered(registry, spec);
        Path mapOutputFile = writeOutput(MAP_0).resolve("file.out");
        assertEquals(MapOutputOutcome.Kind.ACCEPTED, registry.registerMapOutput(signed(token, MAP_0, 2)).kind());
        assertTrue(jars.has(spec.jars().get(0)), "pinned while the job lives");

        assertTrue(registry.unregister(JOB));

        assertTrue(job.classLoader().isClosed());
        byte[] filler = new byte[(int) Files.size(userJar)];
        jars.put(JarDigest.of(filler), filler); // fits only if the released jar can be evicted
        assertFalse(jars.has(spec.jars().get(0)), "released, then evicted");
        assertEquals(Optional.empty(), registry.lookup(JOB));
        assertEquals(List.of(), registry.mapOutputs(JOB));
        assertFalse(tokens.knows(JOB));
        assertTrue(Files.exists(mapOutputFile));
        assertFalse(registry.unregister(JOB));
    }

    @Test
    void idleJobsExpireOnTheInjectedClockAndActivityKeepsThemAlive() throws Exception {
        JobRegistry registry = registry("allow");
        RegisteredJob job = registered(registry, spec(UserJars.SUM_COMBINER, null));

        clock.advance(59_999);
        assertEquals(List.of(), registry.expireIdle());
        assertTrue(registry.touch(JOB));
        clock.advance(59_999);
        assertEquals(List.of(), registry.expireIdle());
        clock.advance(1);
        assertEquals(List.of(JOB), registry.expireIdle());

        assertTrue(job.classLoader().isClosed());
        assertEquals(Optional.empty(), registry.lookup(JOB));
        assertTrue(tokens.knows(JOB), "the application may still run; its token stays until it ends");
        assertEquals(RegisterOutcome.Kind.REGISTERED, registerFromTask(registry, spec(UserJars.SUM_COMBINER, null))
                .kind());
    }

    @Test
    void concurrentRegistrationsOfOneJobLeaveOneLiveLoader() throws Exception {
        JobRegistry registry = registry("allow");
        jars.putFile(userJar);
        JobSpec spec = spec(UserJars.SUM_COMBINER, null);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<RegisterOutcome>> futures = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            futures.add(pool.submit(() -> {
                start.await();
                return registerFromTask(registry, spec);
            }));
        }
        start.countDown();
        List<RegisterOutcome> outcomes = new ArrayList<>();
        for (Future<RegisterOutcome> f : futures) {
            outcomes.add(f.get(30, TimeUnit.SECONDS));
        }
        pool.shutdown();

        RegisteredJob live = registry.lookup(JOB).orElseThrow();
        assertEquals(1, outcomes.stream().filter(o -> o.kind() == RegisterOutcome.Kind.REGISTERED).count());
        for (RegisterOutcome o : outcomes) {
            assertSame(live, o.job().orElseThrow());
        }
        assertFalse(live.classLoader().isClosed());
        registry.close();
        assertTrue(live.classLoader().isClosed());
        assertEquals(List.of(), registry.jobIds());
    }

    private static byte[] bytes(org.apache.hadoop.io.Writable w) throws IOException {
        DataOutputBuffer out = new DataOutputBuffer();
        w.write(out);
        return java.util.Arrays.copyOf(out.getData(), out.getLength());
    }

    /** Text/IntWritable pairs in IFile record layout (vint key length, vint value length, key, value). */
    private static byte[] layout(Object... keyValues) throws IOException {
        DataOutputBuffer out = new DataOutputBuffer();
        for (int i = 0; i < keyValues.length; i += 2) {
            byte[] k = bytes(new Text((String) keyValues[i]));
            byte[] v = bytes(new IntWritable((Integer) keyValues[i + 1]));
            WritableUtils.writeVInt(out, k.length);
            WritableUtils.writeVInt(out, v.length);
            out.write(k);
            out.write(v);
        }
        return java.util.Arrays.copyOf(out.getData(), out.getLength());
    }

    private static List<String> drain(SortedRun run) throws IOException {
        List<String> out = new ArrayList<>();
        Text key = new Text();
        IntWritable value = new IntWritable();
        DataInputBuffer in = new DataInputBuffer();
        for (Advance a; (a = run.advance()) == Advance.RECORD; ) {
            in.reset(run.key().array(), run.key().offset(), run.key().length());
            key.readFields(in);
            in.reset(run.value().array(), run.value().offset(), run.value().length());
            value.readFields(in);
            out.add(key + "=" + value.get());
        }
        return out;
    }

}
